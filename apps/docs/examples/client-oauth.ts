// OAuth on the client: `createOAuthProvider` does what a 401 asks for — protected resource metadata,
// authorization server metadata, PKCE (S256), the authorization code grant with `resource` (RFC 8707),
// the token request, refresh and step-up — and `withAuth(provider)` wraps fetch with it. The host only
// supplies `onRedirect`: open the browser, wait for the redirect back. Machine clients use
// `grant: "client_credentials"` instead.
//
// To run without a network this file also starts a toy authorization server (approves everyone) and a
// protected MCP server, both on 127.0.0.1; `onRedirect` plays the user clicking "Allow".
// Run: pnpm --filter @mcpkit/docs example examples/client-oauth.ts
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createOAuthProvider,
  createProtectedResource,
  InvalidTokenError,
  type ProtectedResource,
  withAuth,
} from "@mcpkit/auth";
import { createServer } from "@mcpkit/server";
import { listen } from "@mcpkit/transport-http/node";
import { connect } from "mcpkit";

// ---- a toy authorization server -----------------------------------------------------------------
const codes = new Map<string, { challenge: string; resource: string }>();
const issued = new Map<string, string>(); // access token → resource
const sha256 = async (text: string) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString("base64url");
const authServer = createHttpServer(async (req, res) => {
  const url = new URL(req.url ?? "/", issuer);
  if (url.pathname === "/.well-known/oauth-authorization-server") {
    res.setHeader("content-type", "application/json");
    return res.end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      }),
    );
  }
  if (url.pathname === "/authorize") {
    const code = crypto.randomUUID();
    codes.set(code, {
      challenge: url.searchParams.get("code_challenge")!,
      resource: url.searchParams.get("resource")!,
    });
    const back = new URL(url.searchParams.get("redirect_uri")!);
    back.searchParams.set("code", code);
    back.searchParams.set("state", url.searchParams.get("state")!);
    res.writeHead(302, { location: back.href });
    return res.end();
  }
  if (url.pathname === "/token" && req.method === "POST") {
    let body = "";
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    const grant = codes.get(form.get("code") ?? "");
    const ok = grant && (await sha256(form.get("code_verifier") ?? "")) === grant.challenge;
    res.setHeader("content-type", "application/json");
    if (!ok) return res.writeHead(400).end(JSON.stringify({ error: "invalid_grant" }));
    const token = crypto.randomUUID();
    issued.set(token, grant.resource);
    return res.end(
      JSON.stringify({ access_token: token, token_type: "Bearer", expires_in: 3600, scope: "mcp" }),
    );
  }
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => authServer.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${(authServer.address() as AddressInfo).port}`;

// ---- a protected MCP server ------------------------------------------------------------------------
const server = createServer({ name: "private-notes", version: "1.0.0" });
server.registerTool("secret", {}, () => "the secret is 42");
let resource: ProtectedResource | undefined;
const mcp = await listen({
  port: 0,
  connect: (transport) => server.connect(transport).then(() => {}),
  authenticate: (request) => resource!.authenticate(request),
  otherRoutes: (request) => resource!.serveMetadata(request),
});
resource = createProtectedResource({
  resource: mcp.url,
  authorizationServers: [issuer],
  verifier: {
    async verify(token, context) {
      if (issued.get(token) !== context.resource) throw new InvalidTokenError("unknown token");
      return { subject: "ada", scopes: ["mcp"], audience: [context.resource], claims: {} };
    },
  },
});

// ---- the client: this is all a host writes ---------------------------------------------------------
try {
  const provider = createOAuthProvider({
    serverUrl: mcp.url,
    // Pre-registered at `issuer` (its credentials go only there); CIMD or dynamic registration otherwise.
    client: { issuer, clientId: "docs-example" },
    redirectUri: "http://127.0.0.1:53682/callback",
    onRedirect: async (authorizationUrl) => {
      console.log(
        "user sent to:",
        `${authorizationUrl.origin.replace(/:\d+$/, ":<port>")}${authorizationUrl.pathname}`,
      );
      console.log("PKCE:", authorizationUrl.searchParams.get("code_challenge_method"));
      // A real host opens a browser and waits on the redirect URI (see createLoopbackRedirect in
      // @mcpkit/auth/node); here the user approves at once.
      const approval = await fetch(authorizationUrl, { redirect: "manual" });
      return approval.headers.get("location")!;
    },
  });
  await using client = await connect(mcp.url, { fetch: withAuth(provider) });
  console.log("authorized by:", provider.issuer === issuer ? "the toy issuer" : provider.issuer);
  console.log("tool says:", (await client.callTool("secret")).content);
} finally {
  await mcp.close();
  await server.close();
  authServer.close();
}
