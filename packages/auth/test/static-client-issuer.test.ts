// Issue 25.2: a pre-registered client (id + secret) is tied to its issuer. Each test is the attack: a
// hostile MCP server names an authorization server of its own (or reaches the secret another way) and
// the test asserts the secret never arrives there. Real loopback HTTP servers play every party.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AuthError, createOAuthProvider, type OAuthProviderOptions, withAuth } from "../src/index.js";
import {
  type AuthServerConfig,
  headlessRedirect,
  type LoopbackAuthServer,
  routedFetch,
  startLoopbackAuthServer,
} from "./support/loopback-auth-server.js";
import { authRejection } from "./support/rejection.js";

const SECRET = "the-pre-registered-secret";
const servers: LoopbackAuthServer[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start(config: AuthServerConfig = {}): Promise<LoopbackAuthServer> {
  const server = await startLoopbackAuthServer(config);
  servers.push(server);
  return server;
}

/** Every place a request to `server` carried the secret: a Basic header or a form field. */
function leaks(server: LoopbackAuthServer): string[] {
  return server.requests
    .filter((r) => {
      const basic = String(r.headers.authorization ?? "");
      const decoded = basic.startsWith("Basic ") ? Buffer.from(basic.slice(6), "base64").toString() : "";
      return decoded.includes(SECRET) || r.body.includes(SECRET);
    })
    .map((r) => `${r.method} ${r.path}`);
}

function machine(serverUrl: string, issuer: string, extra: Partial<OAuthProviderOptions> = {}) {
  return createOAuthProvider({
    serverUrl,
    grant: "client_credentials",
    client: {
      issuer,
      clientId: "machine",
      clientSecret: SECRET,
      tokenEndpointAuthMethod: "client_secret_basic",
    },
    ...extra,
  });
}

describe("a static client is tied to its issuer", () => {
  it("[issue-25.2] a hostile MCP server naming its own authorization server never receives the secret (client_credentials)", async () => {
    const trusted = await start();
    const hostile = await start({
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_basic"] },
    });
    const provider = machine(hostile.mcpUrl, trusted.issuer);
    const error = await authRejection(withAuth(provider)(hostile.mcpUrl, { method: "POST", body: "{}" }));
    expect(error.code).toBe("client_issuer_mismatch");
    expect(error.message).toContain(hostile.issuer);
    expect(error.message).toContain(trusted.issuer);
    expect(error.message).toContain(`${hostile.url}/.well-known/oauth-protected-resource/mcp`);
    expect(leaks(hostile)).toEqual([]);
    expect(hostile.paths()).not.toContain("/token");
  });

  it("[issue-25.2] nor with the authorization code grant: refused before the redirect, no secret at the token endpoint", async () => {
    const trusted = await start();
    const hostile = await start();
    const provider = createOAuthProvider({
      serverUrl: hostile.mcpUrl,
      redirectUri: "http://127.0.0.1:9/callback",
      onRedirect: headlessRedirect,
      client: { issuer: trusted.issuer, clientId: "app", clientSecret: SECRET },
    });
    const error = await authRejection(provider.authorize());
    expect(error.code).toBe("client_issuer_mismatch");
    expect(hostile.paths()).not.toContain("/authorize");
    expect(leaks(hostile)).toEqual([]);
  });

  it("[issue-25.2] among several authorization servers the static client's own issuer is chosen, not the first", async () => {
    const trusted = await start({
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_basic"] },
    });
    const other = await start();
    trusted.config.authorizationServers = () => [other.issuer, trusted.issuer];
    const provider = machine(trusted.mcpUrl, trusted.issuer);
    expect((await withAuth(provider)(trusted.mcpUrl, { method: "POST", body: "{}" })).status).toBe(200);
    expect(provider.issuer).toBe(trusted.issuer);
    expect(leaks(trusted)).toEqual(["POST /token"]);
    expect(other.requests).toEqual([]);
  });

  it("[issue-25.2] a lookup returning a client of another issuer is refused", async () => {
    const trusted = await start();
    const hostile = await start();
    const provider = machine(hostile.mcpUrl, trusted.issuer, {
      client: () => ({ issuer: trusted.issuer, clientId: "machine", clientSecret: SECRET }),
    });
    expect((await authRejection(provider.authorize())).code).toBe("client_issuer_mismatch");
    expect(leaks(hostile)).toEqual([]);
  });

  it("[issue-25.2] a static client without an issuer is a configuration error when the provider is made", () => {
    let error: unknown;
    try {
      createOAuthProvider({
        serverUrl: "https://mcp.example.com/mcp",
        grant: "client_credentials",
        client: { clientId: "machine", clientSecret: SECRET } as never,
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe("invalid_configuration");
    expect((error as AuthError).message).toMatch(/needs `issuer`/);
  });

  it("[issue-25.2] the secret goes only over https: an http token endpoint on a non-loopback host is refused", async () => {
    // The authorization server's metadata names a plain-http token endpoint on a public name, which the
    // injected fetch would route to a loopback server (no traffic leaves the machine).
    const trusted = await start();
    const plain = await start({ origin: "http://auth.example.test" });
    trusted.config.metadata = { token_endpoint: "http://auth.example.test/token" };
    const routed = routedFetch([trusted, plain]);
    const provider = machine(trusted.mcpUrl, trusted.issuer, { fetch: routed.fetch });
    const error = await authRejection(provider.authorize());
    expect(error.code).toBe("unsafe_url");
    expect(error.message).toContain("http://auth.example.test/token");
    expect(error.message).toMatch(/only over https/);
    expect(routed.asked).not.toContain("http://auth.example.test/token");
    expect(leaks(plain)).toEqual([]);
  });

  it("[issue-25.2] a redirect from the token endpoint is not followed with the secret", async () => {
    const thief: Array<{ path: string; body: string; authorization: string | undefined }> = [];
    const catcher = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      thief.push({
        path: req.url ?? "",
        body: Buffer.concat(chunks).toString(),
        authorization: req.headers.authorization,
      });
      res.writeHead(200, { "content-type": "application/json" }).end('{"access_token":"x"}');
    });
    await new Promise<void>((resolve) => catcher.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => catcher.close(() => resolve())));
    const catchUrl = `http://127.0.0.1:${(catcher.address() as AddressInfo).port}/steal`;
    const trusted = await start({
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_post"] },
      token: () => ({ status: 307, body: {}, headers: { location: catchUrl } }),
    });
    const provider = machine(trusted.mcpUrl, trusted.issuer, {
      client: {
        issuer: trusted.issuer,
        clientId: "machine",
        clientSecret: SECRET,
        tokenEndpointAuthMethod: "client_secret_post",
      },
    });
    const error = await authRejection(provider.authorize());
    expect(error.code).toBe("unsafe_url");
    expect(error.message).toMatch(/follow no redirects/);
    expect(thief).toEqual([]);
  });
});
