import { createPeer, JsonRpcError, type Peer, TransportError } from "@mcpkit/jsonrpc";
import { modernRequestHeaders } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import {
  createStreamableHttpClientTransport,
  createStreamableHttpHandler,
  HttpError,
  SessionExpiredError,
  type StreamableHttpClientTransportOptions,
  type StreamableHttpHandler,
} from "../src/index.js";
import { listen } from "../src/node.js";
import { createTestApp } from "./app.js";
import { withModernHeaders } from "./modern-headers.js";
import { LEGACY, MODERN } from "./support.js";

const URL_ = "http://127.0.0.1/mcp";
const INIT = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "t", version: "1" } };

interface Seen {
  method: string;
  headers: Headers;
  body: string | undefined;
}

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
  cleanups = [];
});

/** A handler with the test app, a recording in-process fetch, and a started client peer. */
async function setup(
  handlerExtra: Parameters<typeof createTestApp>[0] = {},
  clientExtra: Partial<StreamableHttpClientTransportOptions> = {},
  intercept?: (request: Request) => Response | undefined,
) {
  const app = createTestApp(handlerExtra);
  const handler: StreamableHttpHandler = createStreamableHttpHandler(app.options);
  const seen: Seen[] = [];
  const watchers: Array<[string, () => void]> = [];
  /** Resolves when the client sends an HTTP request with this method (now or already). */
  const sent = (method: string) =>
    new Promise<void>((resolve) => {
      if (seen.some((s) => s.method === method)) resolve();
      else watchers.push([method, resolve]);
    });
  const doFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push({
      method: request.method,
      headers: request.headers,
      body: typeof init?.body === "string" ? init.body : undefined,
    });
    for (const [m, resolve] of watchers) if (m === request.method) resolve();
    return intercept?.(request) ?? handler.fetch(request);
  };
  const transport = createStreamableHttpClientTransport({ url: URL_, fetch: doFetch, ...clientExtra });
  // A bare peer passes the modern headers itself, as @mcpkit/client does: the transport computes none.
  const client: Peer = createPeer(withModernHeaders(transport), { timeout: 10_000 });
  await client.start();
  cleanups.push(
    () => handler.close(),
    () => client.close(),
  );
  return { app, handler, seen, sent, transport, client };
}

async function initialize(client: Peer): Promise<void> {
  await client.request("initialize", INIT);
  await client.notify("notifications/initialized");
}

describe("legacy client", () => {
  it("captures the session id and version, sends them afterwards (not on initialize), opens the GET stream", async () => {
    const { seen, sent, transport, client, app } = await setup();
    const getOpened = sent("GET");
    await initialize(client);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(transport.protocolVersion).toBe(LEGACY);
    await expect(client.request("echo", { x: 1 })).resolves.toEqual({ x: 1 });
    const [init, initialized, echo] = seen.filter((s) => s.method === "POST");
    expect(init!.headers.get("mcp-session-id")).toBeNull();
    expect(init!.headers.get("mcp-protocol-version")).toBeNull();
    expect(init!.headers.get("accept")).toBe("application/json, text/event-stream");
    for (const s of [initialized!, echo!]) {
      expect(s.headers.get("mcp-session-id")).toBe(transport.sessionId);
      expect(s.headers.get("mcp-protocol-version")).toBe(LEGACY);
      expect(s.headers.get("mcp-method")).toBeNull();
    }
    await getOpened;
    // Unsolicited server notifications arrive on the GET stream.
    const got = new Promise((resolve) => client.onNotification("hello", resolve));
    await app.log.peers[0]!.notify("hello", { n: 1 });
    await expect(got).resolves.toEqual({ n: 1 });
  });

  it("tolerates 405 on the GET stream", async () => {
    const errors: Error[] = [];
    const { client, seen } = await setup({}, { onError: (e) => errors.push(e) }, (r) =>
      r.method === "GET" ? new Response(null, { status: 405 }) : undefined,
    );
    await initialize(client);
    await expect(client.request("echo", { x: 2 })).resolves.toEqual({ x: 2 });
    expect(seen.filter((s) => s.method === "GET")).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("on 404 for a known session: SessionExpiredError, the session is forgotten, re-initialize works", async () => {
    const expired: SessionExpiredError[] = [];
    const { client, transport, handler, app } = await setup({}, { onSessionExpired: (e) => expired.push(e) });
    await initialize(client);
    const old = transport.sessionId!;
    // The server ends the session behind the client's back.
    await handler.fetch(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": old } }));
    await app.log.peers[0]!.closed;
    const error = await client.request("echo", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect((error as SessionExpiredError).sessionId).toBe(old);
    expect(transport.sessionId).toBeUndefined();
    expect(expired).toHaveLength(1);
    await initialize(client);
    expect(transport.sessionId).not.toBe(old);
    await expect(client.request("echo", { again: true })).resolves.toEqual({ again: true });
  });

  it("DELETEs the session on close", async () => {
    const { client, app, handler } = await setup();
    await initialize(client);
    expect(handler.sessionCount).toBe(1);
    await client.close();
    await app.log.peers[0]!.closed;
    expect(handler.sessionCount).toBe(0);
  });

  it("SEP-1699: the server closes the POST stream mid-call; the client resumes by GET with Last-Event-ID after retry", async () => {
    const { client, seen, sent, app } = await setup({ retryInterval: 20 }, { openStandaloneStream: false });
    await initialize(client);
    const messages: string[] = [];
    client.onNotification("notifications/message", (p: { data: string }) => {
      messages.push(p.data);
    });
    const call = client.request("reconnect", {});
    // Wait for the client's resuming GET, then let the handler finish.
    await sent("GET");
    app.release();
    await expect(call).resolves.toEqual({ reconnected: true });
    const get = seen.find((s) => s.method === "GET")!;
    expect(get.headers.get("last-event-id")).toMatch(/\S/);
    expect(messages).toEqual(["before", "after"]);
  });

  it("a dropped GET stream is resumed with Last-Event-ID and no notification is lost", async () => {
    // Cut the first GET response after a few events, from the client's side.
    let cutter: (() => void) | undefined;
    let gets = 0;
    const app = createTestApp({ retryInterval: 10 });
    const handler = createStreamableHttpHandler(app.options);
    const lastEventIds: Array<string | null> = [];
    const doFetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      const response = await handler.fetch(request);
      if (request.method !== "GET") return response;
      lastEventIds.push(request.headers.get("last-event-id"));
      if (gets++ > 0) return response;
      const reader = response.body!.getReader();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          cutter = () => {
            controller.error(new Error("network dropped"));
            void reader.cancel();
          };
        },
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const transport = createStreamableHttpClientTransport({ url: URL_, fetch: doFetch });
    const client = createPeer(transport);
    cleanups.push(
      () => handler.close(),
      () => client.close(),
    );
    const ticks: number[] = [];
    let fifth!: () => void;
    let all!: () => void;
    const gotFive = new Promise<void>((r) => (fifth = r));
    const gotAll = new Promise<void>((r) => (all = r));
    client.onNotification("tick", (p: { i: number }) => {
      ticks.push(p.i);
      if (ticks.length === 5) fifth();
      if (ticks.length === 10) all();
    });
    await client.start();
    await initialize(client);
    const server = app.log.peers[0]!;
    for (let i = 0; i < 5; i++) await server.notify("tick", { i });
    await gotFive;
    cutter!();
    for (let i = 5; i < 10; i++) await server.notify("tick", { i });
    await gotAll;
    expect(ticks).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(lastEventIds[0]).toBeNull();
    expect(lastEventIds[1]).toMatch(/\S/);
  });
});

describe("modern client", () => {
  const META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
  };

  it("sends the MCP-Protocol-Version, Mcp-Method, encoded Mcp-Name and Mcp-Param-* headers its send gives", async () => {
    const { client, seen } = await setup({}, { era: "modern" });
    const params = { name: "héllo wörld", arguments: { region: "eu" }, _meta: META };
    const headers = { ...modernRequestHeaders(MODERN, "tools/call", params), "mcp-param-region": "eu" };
    const error = await client.request("tools/call", params, { headers }).catch((e: unknown) => e);
    // The test app has no tools/call: the 404 + -32601 body arrives as the request's error.
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32601);
    const post = seen[0]!;
    expect(post.headers.get("mcp-protocol-version")).toBe(MODERN);
    expect(post.headers.get("mcp-method")).toBe("tools/call");
    expect(post.headers.get("mcp-name")).toMatch(/^=\?base64\?.+\?=$/);
    expect(post.headers.get("mcp-param-region")).toBe("eu");
    expect(post.headers.get("mcp-session-id")).toBeNull();
    expect(seen.some((s) => s.method === "GET" || s.method === "DELETE")).toBe(false);
  });

  it("delivers a 400 JSON-RPC error body as the request's error (a recognized modern error)", async () => {
    const { client } = await setup({}, { era: "modern" });
    const error = (await client
      .request("echo", { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } })
      .catch((e: unknown) => e)) as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32022);
    expect(error.data).toMatchObject({ requested: "2099-01-01" });
    expect((error.data as { supported: string[] }).supported).toContain(MODERN);
  });

  it("rejects with HttpError (status, body) for an HTTP error without a JSON-RPC error body", async () => {
    const { client } = await setup(
      {},
      { era: "modern" },
      () => new Response("<html>nope</html>", { status: 400, statusText: "Bad Request" }),
    );
    const error = (await client.request("echo", { _meta: META }).catch((e: unknown) => e)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.status).toBe(400);
    expect(error.body).toBe("<html>nope</html>");
    expect(error.error).toBeUndefined();
  });

  it("a JSON-RPC error without an id in a 400 body is still that request's error", async () => {
    const { client } = await setup({}, { era: "modern" }, () =>
      Response.json(
        { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: No valid session ID" } },
        { status: 400 },
      ),
    );
    const error = (await client.request("echo", { _meta: META }).catch((e: unknown) => e)) as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32000);
  });

  it("a response stream that breaks before the response rejects the request with TransportError", async () => {
    const { client } = await setup({}, { era: "modern" }, (r) =>
      r.method === "POST"
        ? new Response('event: message\ndata: {"jsonrpc":"2.0","method":"x"}\n\n', {
            headers: { "content-type": "text/event-stream" },
          })
        : undefined,
    );
    await expect(client.request("echo", { _meta: META })).rejects.toBeInstanceOf(TransportError);
  });
});

describe("over a real port", () => {
  it("listen() refuses a foreign Host (and Origin) and accepts loopback ones", async () => {
    const app = createTestApp();
    const server = await listen(app.options);
    cleanups.push(() => server.close());
    const { request } = await import("node:http");
    const send = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          server.url,
          {
            method: "POST",
            headers: {
              host,
              origin: `http://${host}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT }));
      });
    expect(await send("evil.example.com")).toBe(403);
    expect(await send(`localhost:${server.port}`)).toBe(200);
    expect(await send(`127.0.0.1:${server.port}`)).toBe(200);
  });

  it("413 over the cap on a real port, declared or chunked, and the server keeps serving", async () => {
    const app = createTestApp({ maxBodyBytes: 64 * 1024 });
    const server = await listen(app.options);
    cleanups.push(() => server.close());
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { pad: "x".repeat(200_000) },
    });
    const declared = await fetch(server.url, { method: "POST", headers, body: big });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe(-32600);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("y".repeat(20_000)));
        controller.close();
      },
    });
    const chunked = await fetch(server.url, {
      method: "POST",
      headers,
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const ok = await fetch(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT }),
    });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it("close() ends open SSE streams and the server", async () => {
    const app = createTestApp();
    const server = await listen(app.options);
    const transport = createStreamableHttpClientTransport({ url: server.url });
    const client = createPeer(transport);
    cleanups.push(() => client.close());
    await client.start();
    await initialize(client);
    const pending = client.request("slow", {});
    const outcome = pending.catch((e: unknown) => e);
    await server.close();
    expect(await outcome).toBeInstanceOf(Error);
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
