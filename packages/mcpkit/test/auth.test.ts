// A protected server: serve({ protect }) with @mcpkit/auth's resource-server helpers, and clients that
// come with and without a token.
import { type AuthInfo, createProtectedResource, InvalidTokenError, type TokenVerifier } from "@mcpkit/auth";
import { HttpError } from "@mcpkit/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createServer, type RunningServer, serve } from "../src/index.js";
import { freePort } from "./free-port.js";

// A verifier with a fixed token table stands in for a JWT/JWKS or introspection verifier (those are
// tested in @mcpkit/auth against a real authorization server); what matters here is the wiring.
const verifier: TokenVerifier = {
  async verify(token): Promise<AuthInfo> {
    // InvalidTokenError is the verifier contract for a bad token (401); any other throw is an outage (500).
    if (token !== "good-token") throw new InvalidTokenError("unknown token");
    return { subject: "ada", scopes: ["mcp"], audience: [resourceUrl], claims: { sub: "ada" } };
  },
};
let resourceUrl = "";

describe("serve({ protect }) + connect({ bearerToken })", () => {
  let running: RunningServer;
  beforeAll(async () => {
    const server = createServer({ name: "protected", version: "1.0.0" });
    server.registerTool("whoami", {}, (_args, ctx) => {
      const info = ctx.authInfo as AuthInfo | undefined;
      return info?.subject ?? "nobody";
    });
    // The resource URL must be known before the verifier runs: listen first on a fixed free port.
    const port = await freePort();
    resourceUrl = `http://127.0.0.1:${port}/mcp`;
    const protect = createProtectedResource({
      resource: resourceUrl,
      authorizationServers: ["https://auth.example.com"],
      verifier,
    });
    running = await serve(server, { transport: "http", port, block: false, protect, onListening() {} });
  });
  afterAll(async () => {
    await running?.close();
  });

  it("challenges a request without a token with 401 and resource_metadata", async () => {
    const response = await fetch(running.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
  });

  it("serves the protected resource metadata at its well-known path", async () => {
    const url = new URL(running.url);
    const response = await fetch(`${url.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: resourceUrl,
      authorization_servers: ["https://auth.example.com"],
    });
  });

  it("lets a client with a valid token in, and the tool sees who it is, in both eras", async () => {
    for (const versionNegotiation of ["modern", "legacy"] as const) {
      await using client = await connect(running.url, { bearerToken: "good-token", versionNegotiation });
      expect((await client.callTool("whoami")).content).toBe("ada");
    }
  });

  it("refuses a client with a bad token", async () => {
    const refused = await connect(running.url, { bearerToken: "stolen", connectTimeout: 10_000 }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(401);
  });
});
