// The node adapter serves handlers made by createStreamableHttpHandler without building a Request or a
// Response per request, and createNodeFetch answers with light responses. These tests run over real
// loopback sockets and hold both to the Web-standard path's behaviour.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { modernRequestHeaders } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import {
  createStreamableHttpClientTransport,
  createStreamableHttpHandler,
  type HttpMessageInfo,
  type StreamableHttpHandler,
} from "../src/index.js";
import { createNodeFetch, type HttpServerHandle, listen, nodeBodyReader } from "../src/node.js";
import { createTestApp } from "./app.js";
import { LEGACY, MODERN, rawInitialize, sseMessages } from "./support.js";

const ACCEPT = "application/json, text/event-stream";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function serve(extra: Parameters<typeof createTestApp>[0] = {}) {
  const app = createTestApp(extra);
  const server = await listen({ ...app.options });
  cleanups.push(() => server.close());
  return { app, server };
}

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over node:http, whatever its headers (fetch forbids setting Host). */
function raw(
  server: HttpServerHandle,
  init: { method?: string; headers?: Record<string, string>; body?: string | string[]; path?: string },
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: server.port,
        path: init.path ?? "/mcp",
        method: init.method ?? "POST",
        headers: init.headers ?? {},
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    const parts = Array.isArray(init.body) ? init.body : init.body === undefined ? [] : [init.body];
    for (const part of parts) req.write(part);
    req.end();
  });
}

function modernHeaders(method: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
    ...extra,
  };
}

function modernBody(method: string, id = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: META } });
}

describe("the node adapter's direct replies", () => {
  it("answer every request as the Web-standard path does (status, type, body)", async () => {
    const { server } = await serve();
    const reference = createTestApp();
    const handler = createStreamableHttpHandler(reference.options);
    cleanups.push(() => handler.close());
    const cases: Array<{ method?: string; headers: Record<string, string>; body?: string }> = [
      { headers: { "content-type": "application/json", accept: "application/json" }, body: "{}" },
      { headers: { "content-type": "text/plain", accept: ACCEPT }, body: "{}" },
      { headers: { "content-type": "application/json", accept: ACCEPT }, body: "{not json" },
      { headers: { "content-type": "application/json", accept: ACCEPT }, body: "[]" },
      { headers: { "content-type": "application/json", accept: ACCEPT }, body: "" },
      { method: "PUT", headers: {} },
      {
        headers: { "content-type": "application/json", accept: ACCEPT },
        body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "echo" }),
      },
      { headers: modernHeaders("echo"), body: modernBody("echo") },
      { headers: modernHeaders("nope"), body: modernBody("nope") },
      { headers: modernHeaders("invalid"), body: modernBody("invalid") },
      { headers: modernHeaders("fail"), body: modernBody("fail") },
      { headers: modernHeaders("notify-then-answer"), body: modernBody("notify-then-answer") },
      { headers: modernHeaders("echo", { "mcp-protocol-version": "1999-01-01" }), body: modernBody("echo") },
      { headers: modernHeaders("other"), body: modernBody("echo") },
      // A BOM before the JSON is dropped, as Request.text() drops it.
      { headers: modernHeaders("echo"), body: `\ufeff${modernBody("echo")}` },
    ];
    for (const c of cases) {
      const init: RequestInit = { method: c.method ?? "POST", headers: c.headers };
      if (c.body !== undefined) init.body = c.body;
      const web = await handler.fetch(new Request("http://127.0.0.1/mcp", init));
      const webBody = await web.text();
      const got = await raw(server, { method: c.method ?? "POST", headers: c.headers, body: c.body });
      const what = `${c.method ?? "POST"} ${c.body ?? ""}`;
      expect(got.status, what).toBe(web.status);
      expect(got.headers["content-type"], what).toBe(web.headers.get("content-type") ?? undefined);
      expect(got.body, what).toBe(webBody);
      if (got.headers["content-type"] === "application/json") {
        expect(Number(got.headers["content-length"]), what).toBe(Buffer.byteLength(got.body));
      }
    }
  });

  it("an SSE reply that is complete at once goes out whole, with its length", async () => {
    const { server } = await serve();
    const got = await raw(server, { headers: modernHeaders("echo"), body: modernBody("echo") });
    expect(got.headers["content-type"]).toBe("text/event-stream");
    expect(got.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(got.headers["content-length"])).toBe(Buffer.byteLength(got.body));
    expect(sseMessages(got.body)).toEqual([{ jsonrpc: "2.0", id: 1, result: { _meta: META } }]);
  });

  it("413 for a declared and for a streamed body over the cap", async () => {
    const { server } = await serve({ maxBodyBytes: 100 });
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { pad: "x".repeat(200) } });
    const declared = await raw(server, {
      headers: { "content-type": "application/json", accept: ACCEPT, "content-length": String(big.length) },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.code).toBe(-32600);
    const streamed = await raw(server, {
      headers: { "content-type": "application/json", accept: ACCEPT, "transfer-encoding": "chunked" },
      body: [big.slice(0, 80), big.slice(80)],
    });
    expect(streamed.status).toBe(413);
    expect(streamed.headers.connection).toBe("close");
  });

  it("403 for a foreign Host or Origin, 404 outside the path", async () => {
    const { server } = await serve();
    const post = { "content-type": "application/json", accept: ACCEPT };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo" });
    expect((await raw(server, { headers: { ...post, host: "evil.example" }, body })).status).toBe(403);
    expect((await raw(server, { headers: { ...post, origin: "http://evil.example" }, body })).status).toBe(
      403,
    );
    const elsewhere = await raw(server, { path: "/other", headers: post, body });
    expect(elsewhere.status).toBe(404);
    expect(JSON.parse(elsewhere.body).error.code).toBe(-32600);
  });

  it("legacy: the session id on initialize, a priming event on SSE replies, the session's requests", async () => {
    const { server, app } = await serve({ retryInterval: 777 });
    const { sessionId, response } = await rawInitialize(fetch, server.url);
    expect(response.status).toBe(200);
    const session = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    const reply = await raw(server, {
      headers: { "content-type": "application/json", accept: ACCEPT, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "notify-then-answer" }),
    });
    expect(reply.headers["content-type"]).toBe("text/event-stream");
    const [priming, ...rest] = reply.body.split("\n\n");
    expect(priming).toMatch(/^id: \S+\nretry: 777\ndata: $/);
    expect(sseMessages(rest.join("\n\n"))).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
      { jsonrpc: "2.0", id: 2, result: { done: true } },
    ]);
    const note = await raw(server, {
      headers: { "content-type": "application/json", accept: ACCEPT, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/hello" }),
    });
    expect(note.status).toBe(202);
    expect(app.log.notifications.map((n) => n.sessionId)).toContain(sessionId);
    const gone = await raw(server, { method: "DELETE", headers: session });
    expect(gone.status).toBe(200);
    const after = await raw(server, {
      headers: { "content-type": "application/json", accept: ACCEPT, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "echo" }),
    });
    expect(after.status).toBe(404);
  });

  it("the app gets a Request built on demand: url, method, headers, body, and the verified identity", async () => {
    const seen: Request[] = [];
    const { server, app } = await serve({
      authenticate(request) {
        seen.push(request);
        return request.headers.get("authorization") === "Bearer good"
          ? { user: "ada" }
          : new Response("no", { status: 401 });
      },
    });
    const headers = modernHeaders("echo", { "x-test": "one", authorization: "Bearer good" });
    const body = modernBody("echo", 9);
    const ok = await raw(server, { headers, body });
    expect(ok.status).toBe(200);
    const denied = await raw(server, { headers: { ...headers, authorization: "Bearer bad" }, body });
    expect(denied.status).toBe(401);
    expect(denied.body).toBe("no");
    const info = app.log.infos[0] as HttpMessageInfo;
    expect(info.authInfo).toEqual({ user: "ada" });
    expect(info.headers.get("X-Test")).toBe("one");
    expect(info.httpRequest.url).toBe(server.url);
    expect(info.httpRequest.method).toBe("POST");
    expect(info.httpRequest.signal.aborted).toBe(false);
    expect(await info.httpRequest.text()).toBe(body);
    expect(app.log.connections[0]!.request).toBe(info.httpRequest);
    expect(seen[0]).toBe(info.httpRequest);
  });

  it("a client that leaves aborts its modern request's handler", async () => {
    const { server, app } = await serve();
    const controller = new AbortController();
    const pending = fetch(server.url, {
      method: "POST",
      headers: modernHeaders("slow"),
      body: modernBody("slow"),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await app.entered("slow");
    controller.abort();
    await app.log.peers[0]!.closed;
    expect(app.log.aborted).toEqual(["slow"]);
    await pending;
  });

  it("a modern SSE stream stays open until the client closes it", async () => {
    const { server, app } = await serve();
    const response = await fetch(server.url, {
      method: "POST",
      headers: modernHeaders("listen"),
      body: modernBody("listen"),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("list_changed")) text += (await reader.read()).value ?? "";
    await reader.cancel();
    await app.log.peers[0]!.closed;
    expect(app.log.aborted).toEqual(["listen"]);
  });

  it("a hand-written handler (fetch only) is served through Request and Response", async () => {
    const handler: StreamableHttpHandler = {
      maxBodyBytes: 1000,
      sessionCount: 0,
      async fetch(request) {
        return new Response(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`, {
          status: 201,
          headers: { "x-hand": "yes" },
        });
      },
      async close() {},
    };
    const server = await listen({ handler });
    cleanups.push(() => server.close());
    const got = await raw(server, { headers: { "content-type": "text/plain" }, body: "hello" });
    expect(got).toMatchObject({ status: 201, body: "POST /mcp hello" });
    expect(got.headers["x-hand"]).toBe("yes");
  });
});

describe("createNodeFetch's light responses", () => {
  it("carry the client transport's light signals: a request's abort and close() both end the exchange", async () => {
    const { server, app } = await serve();
    const nodeFetch = createNodeFetch();
    cleanups.push(() => nodeFetch.destroy());
    const transport = createStreamableHttpClientTransport({
      url: server.url,
      fetch: nodeFetch,
      bodyReader: nodeBodyReader,
      era: "modern",
      protocolVersion: MODERN,
    });
    let sawNotification!: () => void;
    const notified = new Promise<void>((resolve) => (sawNotification = resolve));
    await transport.start({
      onMessage(value) {
        if ((value as { method?: string }).method !== undefined) sawNotification();
      },
      onInvalid() {},
      onClose() {},
    });
    cleanups.push(() => transport.close());
    const controller = new AbortController();
    const reason = new Error("stop");
    const first = transport.send(
      { jsonrpc: "2.0", id: 1, method: "slow", params: { _meta: META } },
      { signal: controller.signal, headers: modernRequestHeaders(MODERN, "slow", {}) },
    );
    await app.entered("slow");
    controller.abort(reason);
    await expect(first).rejects.toBe(reason);
    await app.log.peers[0]!.closed;
    const second = transport.send(
      { jsonrpc: "2.0", id: 2, method: "listen", params: { _meta: META } },
      { headers: modernRequestHeaders(MODERN, "listen", {}) },
    );
    await notified;
    await transport.close();
    await expect(second).rejects.toThrow();
    await app.log.peers[1]!.closed;
    expect(app.log.aborted).toEqual(["slow", "listen"]);
  });

  it("are Responses: headers, text and json without undici, everything else through a real one", async () => {
    const { server } = await serve({ preferJson: true });
    const nodeFetch = createNodeFetch();
    cleanups.push(() => nodeFetch.destroy());
    const init = () => ({ method: "POST", headers: modernHeaders("echo"), body: modernBody("echo") });
    const a = await nodeFetch(server.url, init());
    expect(a).toBeInstanceOf(Response);
    expect(a.ok).toBe(true);
    expect(a.headers.get("Content-Type")).toBe("application/json");
    expect(a.headers.has("content-length")).toBe(true);
    expect(a.bodyUsed).toBe(false);
    const value = (await a.json()) as { id: number };
    expect(value.id).toBe(1);
    expect(a.bodyUsed).toBe(true);
    await expect(a.text()).rejects.toThrow(TypeError);
    const b = await nodeFetch(server.url, init());
    expect([...b.headers.keys()]).toContain("content-type");
    const copy = b.clone();
    expect(await copy.text()).toBe(await b.text());
    const c = await nodeFetch(server.url, init());
    const bytes = new Uint8Array(await c.arrayBuffer());
    expect(JSON.parse(new TextDecoder().decode(bytes)).id).toBe(1);
    const bad = await nodeFetch(server.url, { ...init(), headers: { accept: ACCEPT } });
    expect(bad.status).toBe(415);
    expect(bad.ok).toBe(false);
  });

  it("hand an SSE body to any reader as a Web stream", async () => {
    const { server } = await serve();
    const nodeFetch = createNodeFetch();
    cleanups.push(() => nodeFetch.destroy());
    const response = await nodeFetch(server.url, {
      method: "POST",
      headers: modernHeaders("notify-then-answer"),
      body: modernBody("notify-then-answer"),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await new Response(response.body).text();
    expect(sseMessages(text)).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
      { jsonrpc: "2.0", id: 1, result: { done: true } },
    ]);
  });
});
