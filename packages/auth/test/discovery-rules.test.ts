// Issue 25.3: OAuth discovery fetches only safe URLs. Each test is the attack: an MCP server points
// discovery at an internal URL (another loopback port, a private or link-local address, a plain-http URL,
// a redirect) and the test asserts it is never fetched and the refusal names the URL and the rule. Real
// loopback servers; a public-looking MCP server is reached through an injected fetch that refuses every
// other host, so no traffic leaves the machine.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOAuthProvider, withAuth } from "../src/index.js";
import {
  type AuthServerConfig,
  type LoopbackAuthServer,
  routedFetch,
  startLoopbackAuthServer,
} from "./support/loopback-auth-server.js";
import { authRejection } from "./support/rejection.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const servers: LoopbackAuthServer[] = [];
const plain: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(
    plain.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise<void>((resolve) => s.close(() => resolve()));
    }),
  );
});

async function start(config: AuthServerConfig = {}): Promise<LoopbackAuthServer> {
  const server = await startLoopbackAuthServer(config);
  servers.push(server);
  return server;
}

/** A loopback "admin" endpoint that must never be reached: it records every hit. */
async function adminEndpoint(): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  plain.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

function provider(
  serverUrl: string,
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>,
) {
  return createOAuthProvider({
    serverUrl,
    redirectUri: REDIRECT,
    // No browser step and no global fetch: a test that got this far must not reach any real host.
    onRedirect: async () => {
      throw new Error("no browser in this test");
    },
    ...(fetch ? { fetch } : {}),
  });
}

describe("discovery fetches only safe URLs", () => {
  it("[issue-25.3] resource_metadata pointing at another loopback port (an admin endpoint with a query) is not fetched", async () => {
    const admin = await adminEndpoint();
    const mcp = await start();
    const target = `${admin.url}/admin/flush?all=1`;
    mcp.config.resource = (authorization) => {
      const token = authorization?.slice("Bearer ".length);
      if (token && mcp.issued.has(token)) return undefined;
      return { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${target}"` } };
    };
    const error = await authRejection(
      withAuth(provider(mcp.mcpUrl))(mcp.mcpUrl, { method: "POST", body: "{}" }),
    );
    expect(error.code).toBe("unsafe_url");
    expect(error.message).toContain(target);
    expect(error.message).toMatch(
      /only on the MCP server's origin .* or at \/\.well-known\/oauth-protected-resource/,
    );
    expect(admin.hits).toEqual([]);
  });

  it("[issue-25.3] authorization_servers naming private, loopback or link-local hosts are not fetched for a public MCP server", async () => {
    const mcp = await start({ origin: "https://mcp.example.test" });
    const routed = routedFetch([mcp]);
    const internal = [
      "https://169.254.169.254/latest",
      "https://10.1.2.3",
      "https://192.168.0.1",
      "https://127.0.0.1:9",
      "https://localhost:9",
      "https://[::ffff:127.0.0.1]",
      "https://[fd00::1]",
      "https://metadata.google.internal",
      "https://intranet",
    ];
    for (const issuer of internal) {
      mcp.config.authorizationServers = () => [issuer];
      const error = await authRejection(provider(mcp.mcpUrl, routed.fetch).authorize());
      expect(error.code).toBe("unsafe_url");
      expect(error.message).toContain(new URL(issuer).host);
      expect(error.message).toMatch(/address is fetched only for an MCP server on a/);
    }
    // Only the MCP server's own metadata was ever asked for.
    expect(routed.asked.every((url) => url.startsWith("https://mcp.example.test/"))).toBe(true);
  });

  it("[issue-25.3] a resource_metadata URL on a private address is not fetched for a public MCP server, even at the well-known path", async () => {
    const mcp = await start({ origin: "https://mcp.example.test" });
    const target = "https://10.0.0.5/.well-known/oauth-protected-resource";
    mcp.config.resource = () => ({
      status: 401,
      headers: { "www-authenticate": `Bearer resource_metadata="${target}"` },
    });
    const routed = routedFetch([mcp]);
    const call = withAuth(provider(mcp.mcpUrl, routed.fetch), { fetch: routed.fetch });
    const error = await authRejection(call(mcp.mcpUrl, { method: "POST", body: "{}" }));
    expect(error.code).toBe("unsafe_url");
    expect(error.message).toContain(target);
    expect(routed.asked).not.toContain(target);
  });

  it("[issue-25.3] discovery for a plain-http MCP server on a public name fetches nothing", async () => {
    const mcp = await start({ origin: "http://mcp.example.test" });
    const routed = routedFetch([mcp]);
    const error = await authRejection(provider(mcp.mcpUrl, routed.fetch).authorize());
    expect(error.code).toBe("unsafe_url");
    expect(error.message).toContain("http://mcp.example.test/.well-known/oauth-protected-resource/mcp");
    expect(error.message).toMatch(/only https is fetched/);
    expect(routed.asked).toEqual([]);
  });

  it("[issue-25.3] an http authorization server named by an https MCP server is not fetched", async () => {
    const mcp = await start({ origin: "https://mcp.example.test" });
    const as = await start({ origin: "http://auth.example.test" });
    mcp.config.authorizationServers = () => [as.issuer];
    const routed = routedFetch([mcp, as]);
    const error = await authRejection(provider(mcp.mcpUrl, routed.fetch).authorize());
    expect(error.code).toBe("unsafe_url");
    expect(error.message).toContain("http://auth.example.test");
    expect(as.requests).toEqual([]);
  });

  it("[issue-25.3] a redirect during discovery is an error and is not followed", async () => {
    const admin = await adminEndpoint();
    const target = `${admin.url}/admin/flush?all=1`;
    // An MCP server whose metadata URL (on its own origin) redirects to the admin endpoint.
    const mcp = createServer((req, res) => {
      if (req.url === "/mcp") {
        res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${base}/prm"` }).end();
      } else {
        res.writeHead(302, { location: target }).end();
      }
    });
    await new Promise<void>((resolve) => mcp.listen(0, "127.0.0.1", resolve));
    plain.push(mcp);
    const base = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}`;
    const error = await authRejection(
      withAuth(provider(`${base}/mcp`))(`${base}/mcp`, { method: "POST", body: "{}" }),
    );
    expect(error.code).toBe("unsafe_url");
    expect(error.message).toContain(`${base}/prm`);
    expect(error.message).toMatch(/follows no redirects/);
    expect(admin.hits).toEqual([]);
  });

  it("a cross-origin resource_metadata at the well-known path of a public host is taken", async () => {
    const mcp = await start({ origin: "https://mcp.example.test" });
    const meta = await start({ origin: "https://meta.example.test" });
    const metaUrl = "https://meta.example.test/.well-known/oauth-protected-resource/mcp";
    meta.config.prmResource = "https://mcp.example.test/mcp";
    meta.config.authorizationServers = () => [mcp.issuer];
    mcp.config.resource = (authorization) => {
      const token = authorization?.slice("Bearer ".length);
      if (token && mcp.issued.has(token)) return undefined;
      return { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${metaUrl}"` } };
    };
    const routed = routedFetch([mcp, meta]);
    const machine = createOAuthProvider({
      serverUrl: mcp.mcpUrl,
      fetch: routed.fetch,
      grant: "client_credentials",
      client: { issuer: mcp.issuer, clientId: "m", clientSecret: "s" },
    });
    const response = await withAuth(machine, { fetch: routed.fetch })(mcp.mcpUrl, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(routed.asked).toContain(metaUrl);
  });
});
