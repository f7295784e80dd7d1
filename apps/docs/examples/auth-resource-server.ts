// Authorization, resource-server side: `createProtectedResource` serves the RFC 9728 metadata, answers
// 401/403 challenges (`WWW-Authenticate: Bearer resource_metadata=…`) and verifies tokens with a
// `TokenVerifier` — `createJwtVerifier` (JWKS) or `createIntrospectionVerifier` (RFC 7662) in production,
// a small table here. The verified `AuthInfo` (never the token) reaches handlers as `ctx.authInfo`.
// Run: pnpm --filter @mcpkit/docs example examples/auth-resource-server.ts
import {
  type AuthInfo,
  createProtectedResource,
  InvalidTokenError,
  type ProtectedResource,
} from "@mcpkit/auth";
import { createServer } from "@mcpkit/server";
import { listen } from "@mcpkit/transport-http/node";
import { connect } from "mcpkit";

const tokens: Record<string, { sub: string; scope: string }> = {
  "token-ada": { sub: "ada", scope: "notes:read notes:write" },
  "token-bob": { sub: "bob", scope: "profile" },
};

const server = createServer({ name: "notes", version: "1.0.0" });
server.registerTool("whoami", {}, (_args, ctx) => {
  const auth = ctx.authInfo as AuthInfo | undefined;
  return `You are ${auth?.subject} with scopes ${auth?.scopes.join(" ")}`;
});

let resource: ProtectedResource | undefined; // made once the port is known
const http = await listen({
  port: 0,
  connect: (transport) => server.connect(transport).then(() => {}),
  // Runs before the body is read; a Response (the challenge) is sent as it is.
  authenticate: (request) => resource!.authenticate(request),
  // The metadata document lives outside /mcp.
  otherRoutes: (request) => resource!.serveMetadata(request),
});
resource = createProtectedResource({
  resource: http.url,
  authorizationServers: ["https://auth.example.com"],
  scopesSupported: ["notes:read", "notes:write"],
  requiredScopes: ["notes:read"],
  verifier: {
    async verify(token, { resource: audience }) {
      const entry = tokens[token];
      if (!entry) throw new InvalidTokenError("unknown token");
      return {
        subject: entry.sub,
        scopes: entry.scope.split(" "),
        audience: [audience],
        claims: { ...entry },
      };
    },
  },
});

try {
  const anonymous = await fetch(http.url, {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
  });
  console.log("no token:", anonymous.status, anonymous.headers.get("www-authenticate")?.split(",")[0]);
  const metadata = await (await fetch(resource.metadataUrl)).json();
  console.log(
    "metadata:",
    JSON.stringify({ servers: metadata.authorization_servers, scopes: metadata.scopes_supported }),
  );

  await using ada = await connect(http.url, { bearerToken: "token-ada" });
  console.log("ada:", (await ada.callTool("whoami")).content);

  const bob = await connect(http.url, { bearerToken: "token-bob" }).catch((error: Error) => error);
  console.log("bob (no notes:read):", bob instanceof Error ? bob.message.split("\n")[0] : "connected?!");
} finally {
  await http.close();
  await server.close();
}
