import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpHandler, type StreamableHttpHandler } from "../src/index.js";
import { listen } from "../src/node.js";
import { createTestApp } from "./app.js";
import { LEGACY, MODERN } from "./support.js";

const URL_ = "http://127.0.0.1/mcp";
const PAGE = "https://app.example.com";
const ACCEPT = "application/json, text/event-stream";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function setup(extra: Parameters<typeof createTestApp>[0] = {}): StreamableHttpHandler {
  const handler = createStreamableHttpHandler(createTestApp(extra).options);
  closers.push(() => handler.close());
  return handler;
}

function preflight(origin: string, requestHeaders: string): Request {
  return new Request(URL_, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": requestHeaders,
    },
  });
}

function echo(origin?: string): Request {
  return new Request(URL_, {
    method: "POST",
    headers: {
      ...(origin === undefined ? {} : { origin }),
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-protocol-version": MODERN,
      "mcp-method": "echo",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { _meta: META } }),
  });
}

describe("CORS (the handler's cors option)", () => {
  it("[runtimes:cors-off] is off by default: no CORS headers, and OPTIONS is not a method", async () => {
    const handler = setup({ allowedOrigins: [PAGE] });
    const answer = await handler.fetch(echo(PAGE));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect((await handler.fetch(preflight(PAGE, "content-type"))).status).toBe(405);
  });

  it("[runtimes:cors-preflight] answers a preflight for the MCP headers from an allowed origin", async () => {
    const handler = setup({ allowedOrigins: [PAGE], cors: true });
    const answer = await handler.fetch(
      preflight(
        PAGE,
        "content-type, MCP-Protocol-Version, mcp-method, Mcp-Name, mcp-session-id, last-event-id, authorization, mcp-param-region, x-other",
      ),
    );
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(answer.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE");
    expect(answer.headers.get("access-control-allow-headers")).toBe(
      "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, last-event-id, authorization, mcp-param-region",
    );
    expect(answer.headers.get("vary")).toContain("Origin");
  });

  it("[runtimes:cors-response] lets the page read answers of both eras and the session id", async () => {
    const handler = setup({ allowedOrigins: [PAGE], cors: true, preferJson: true });
    const modern = await handler.fetch(echo(PAGE));
    expect(modern.status).toBe(200);
    expect(modern.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(modern.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");

    const legacy = await handler.fetch(
      new Request(URL_, {
        method: "POST",
        headers: { origin: PAGE, "content-type": "application/json", accept: ACCEPT },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "t", version: "1" } },
        }),
      }),
    );
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get("mcp-session-id")).toBeTruthy();
    expect(legacy.headers.get("access-control-allow-origin")).toBe(PAGE);
    // A request without Origin (not a browser page) gets no CORS headers.
    const plain = await handler.fetch(echo());
    expect(plain.status).toBe(200);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("[runtimes:cors-refused] gives a refused origin neither a preflight nor CORS headers", async () => {
    const handler = setup({ allowedOrigins: [PAGE], cors: true });
    const pre = await handler.fetch(preflight("https://evil.example", "content-type"));
    expect(pre.status).toBe(403);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const post = await handler.fetch(echo("https://evil.example"));
    expect(post.status).toBe(403);
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("[runtimes:cors-auth] adds the headers to an authenticate challenge, which a preflight skips", async () => {
    const challenge = () =>
      new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer resource_metadata="x"' } });
    const handler = setup({ allowedOrigins: [PAGE], cors: true, authenticate: challenge });
    expect((await handler.fetch(preflight(PAGE, "authorization"))).status).toBe(204);
    const answer = await handler.fetch(echo(PAGE));
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(answer.headers.get("www-authenticate")).toContain("resource_metadata");
  });

  it("[runtimes:cors-node] works through the node adapter too", async () => {
    const app = createTestApp({ allowedOrigins: [PAGE], cors: true });
    const http = await listen({ ...app.options, port: 0 });
    closers.push(() => http.close());
    const pre = await fetch(http.url, {
      method: "OPTIONS",
      headers: {
        origin: PAGE,
        "access-control-request-method": "POST",
        "access-control-request-headers": "mcp-method",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toBe("mcp-method");
    const answer = await fetch(http.url, {
      method: "POST",
      headers: echo(PAGE).headers,
      body: await echo(PAGE).text(),
    });
    expect(answer.headers.get("access-control-allow-origin")).toBe(PAGE);
  });
});
