// Enterprise-Managed Authorization (the `io.modelcontextprotocol/enterprise-managed-authorization`
// extension): the user already signed in to the host through the company's identity provider (IdP), so
// the host holds an ID Token. `grant: { type: "enterprise_managed" }` turns it into an access token for an
// MCP server with no browser and no consent screen:
//   1. RFC 8693 token exchange at the IdP: ID Token → ID-JAG (Identity Assertion JWT Authorization Grant),
//      for the MCP server's authorization server (`audience`) and the MCP server (`resource`);
//   2. RFC 7523 JWT bearer grant at that authorization server: the ID-JAG → an access token, with the
//      client's own credentials there (pre-registered: the IdP names this client in the grant).
// The IdP decides by its policy which users may use which servers; the host writes only the options.
//
// To run without a network this file also starts a toy IdP, a toy authorization server and a protected
// MCP server, all on 127.0.0.1. A real ID-JAG is a JWT signed by the IdP (`typ: oauth-id-jag+jwt`) that
// the authorization server verifies with the IdP's keys; the toys share a map instead.
// Run: pnpm --filter @mcpkit/docs example examples/client-enterprise-auth.ts
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AuthInfo,
  createOAuthProvider,
  createProtectedResource,
  InvalidTokenError,
  withAuth,
} from "@mcpkit/auth";
import { createServer } from "@mcpkit/server";
import { listen } from "@mcpkit/transport-http/node";
import { connect } from "mcpkit";

type Handler = (url: URL, form: URLSearchParams, req: IncomingMessage) => unknown;

/** A JSON-over-HTTP toy on 127.0.0.1: `handle` returns the body, or undefined for 404. */
async function toyServer(handle: Handler): Promise<{ url: string; close(): void }> {
  const http = createHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const answer = handle(new URL(req.url ?? "/", "http://x"), new URLSearchParams(body), req);
    res.writeHead(answer === undefined ? 404 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer ?? { error: "not_found" }));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, close: () => http.close() };
}

// The ID-JAGs the toy IdP issued (grant → its claims), and the access tokens the toy AS issued.
const grants = new Map<string, { sub: string; aud: string; resource: string; client_id: string }>();
const accessTokens = new Map<string, { sub: string; resource: string }>();

const idp = await toyServer((url, form) => {
  if (url.pathname !== "/token") return undefined;
  console.log(
    `IdP exchange: ${form.get("subject_token_type")?.split(":").pop()} → ${form.get("requested_token_type")?.split(":").pop()}`,
  );
  const grant = crypto.randomUUID();
  // Policy would be checked here: may this user use this client with this MCP server?
  grants.set(grant, {
    sub: "ada",
    aud: form.get("audience")!,
    resource: form.get("resource")!,
    client_id: "docs-agent", // the client id the IdP knows for this MCP server
  });
  return {
    access_token: grant,
    issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    token_type: "N_A",
  };
});

const authServer = await toyServer((url, form, req) => {
  if (url.pathname === "/.well-known/oauth-authorization-server") {
    return {
      issuer: authServer.url,
      token_endpoint: `${authServer.url}/token`,
      grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
      token_endpoint_auth_methods_supported: ["client_secret_basic"],
    };
  }
  if (url.pathname !== "/token") return undefined;
  const [clientId] = atob((req.headers.authorization ?? "").replace(/^Basic /, "")).split(":");
  const grant = grants.get(form.get("assertion") ?? "");
  // The checks of ext-auth §5.1: the grant is for this server, names the authenticated client.
  if (!grant || grant.aud !== authServer.url || grant.client_id !== clientId)
    return { error: "invalid_grant" };
  console.log(
    `AS grant: ${form.get("grant_type")?.split(":").pop()} from client ${clientId} for ${grant.sub}`,
  );
  const token = crypto.randomUUID();
  accessTokens.set(token, { sub: grant.sub, resource: grant.resource });
  return { access_token: token, token_type: "Bearer", expires_in: 3600 };
});

const server = createServer({ name: "team-wiki", version: "1.0.0" });
server.registerTool("whoami", {}, (_args, ctx) => `hello ${(ctx.authInfo as AuthInfo | undefined)?.subject}`);
let resource: ReturnType<typeof createProtectedResource> | undefined;
const mcp = await listen({
  port: 0,
  connect: (transport) => server.connect(transport).then(() => {}),
  authenticate: (request) => resource!.authenticate(request),
  otherRoutes: (request) => resource!.serveMetadata(request),
});
resource = createProtectedResource({
  resource: mcp.url,
  authorizationServers: [authServer.url],
  verifier: {
    async verify(token, context) {
      const known = accessTokens.get(token);
      if (known?.resource !== context.resource) throw new InvalidTokenError("unknown token");
      return { subject: known.sub, scopes: [], audience: [context.resource], claims: {} };
    },
  },
});

// The client: this is all a host writes.
try {
  const provider = createOAuthProvider({
    serverUrl: mcp.url,
    grant: {
      type: "enterprise_managed",
      // Asked for each new grant: hand the ID Token from the host's sign-on (refresh it there if needed).
      identityAssertion: async () => "eyJ...the-id-token-from-single-sign-on",
      idp: { tokenEndpoint: `${idp.url}/token`, client: { clientId: "docs-agent-at-idp" } },
    },
    // This client as pre-registered at the MCP server's authorization server.
    client: { issuer: authServer.url, clientId: "docs-agent", clientSecret: "agent-secret" },
  });
  await using client = await connect(mcp.url, { fetch: withAuth(provider) });
  console.log("tool says:", (await client.callTool("whoami")).content);
} finally {
  await mcp.close();
  await server.close();
  idp.close();
  authServer.close();
}
