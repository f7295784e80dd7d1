import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, Transport } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import {
  createStreamableHttpHandler,
  type HttpMessageInfo,
  type ModernRequestContext,
  type ServerLike,
  type StreamableHttpHandler,
} from "../src/index.js";
import { LEGACY, MODERN, rawInitialize, sseMessages } from "./support.js";

// The handler over a server given as `server` (the ServerLike contract): each 2026-07-28 request is one
// call of `handle`, with no transport or connection; `connect` sees only legacy sessions.

const URL_ = "http://127.0.0.1/mcp";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

const handlers: StreamableHttpHandler[] = [];
afterEach(async () => {
  for (const h of handlers.splice(0)) await h.close();
});

type Answer = (
  message: JsonRpcRequest | JsonRpcNotification,
  context: ModernRequestContext,
) => JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;

/** A server that answers with `answer` and logs what it was handed. */
function fakeServer(answer: Answer) {
  const handled: Array<{ message: JsonRpcRequest | JsonRpcNotification; context: ModernRequestContext }> = [];
  const connected: Transport[] = [];
  const server: ServerLike = {
    handle(message, context) {
      handled.push({ message, context });
      return answer(message, context);
    },
    async connect(transport) {
      connected.push(transport);
      await transport.start({
        onMessage: (value) => {
          const m = value as JsonRpcRequest;
          if (m.method !== "initialize") return;
          const init = {
            protocolVersion: LEGACY,
            capabilities: {},
            serverInfo: { name: "fake", version: "1" },
          };
          void transport.send(result(m.id, init), { relatedRequestId: m.id });
        },
        onInvalid: () => {},
        onClose: () => {},
      });
    },
  };
  return { server, handled, connected };
}

function serve(answer: Answer, extra: { preferJson?: boolean; onError?: (e: Error) => void } = {}) {
  const fake = fakeServer(answer);
  const handler = createStreamableHttpHandler({ server: fake.server, ...extra });
  handlers.push(handler);
  return { ...fake, handler };
}

/** A 2026-07-28 POST of `method`: a request with `id`, a notification with `id` null. */
function modern(method: string, id: number | null = 1, params: Record<string, unknown> = {}): Request {
  const body: Record<string, unknown> = { jsonrpc: "2.0", method, params: { ...params, _meta: META } };
  if (id !== null) body.id = id;
  return new Request(URL_, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
    },
    body: JSON.stringify(body),
  });
}

const result = (id: JsonRpcRequest["id"], value: Record<string, unknown>): JsonRpcResponse => ({
  jsonrpc: "2.0",
  id,
  result: value,
});

describe("createStreamableHttpHandler({ server }): modern requests are calls of server.handle", () => {
  it("answers with handle's response (JSON with preferJson), its info carrying the request, no connect", async () => {
    const { handler, handled, connected } = serve((m) => result((m as JsonRpcRequest).id, { ok: 1 }), {
      preferJson: true,
    });
    const r = await handler.fetch(modern("echo", 7));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(await r.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { ok: 1 } });
    expect(handled).toHaveLength(1);
    const info = handled[0]!.context.info as HttpMessageInfo;
    expect(info.protocolVersion).toBe(MODERN);
    expect(info.headers.get("mcp-method")).toBe("echo");
    expect(connected).toHaveLength(0);
  });

  it("streams the notifications handle sends before the response as SSE, in order", async () => {
    const { handler } = serve(async (m, context) => {
      context.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
      await Promise.resolve();
      context.notify({ jsonrpc: "2.0", method: "notifications/message", params: { data: "x" } });
      return result((m as JsonRpcRequest).id, { done: true });
    });
    const r = await handler.fetch(modern("work", 3));
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    expect(sseMessages(await r.text())).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
      { jsonrpc: "2.0", method: "notifications/message", params: { data: "x" } },
      { jsonrpc: "2.0", id: 3, result: { done: true } },
    ]);
  });

  it("maps error responses to statuses by code alone: -32601 404, -32021 400, -32602 200", async () => {
    const codes = new Map([
      ["a", -32601],
      ["b", -32021],
      ["c", -32602],
    ]);
    const { handler } = serve((m) => ({
      jsonrpc: "2.0",
      id: (m as JsonRpcRequest).id,
      error: { code: codes.get(m.method)!, message: m.method, data: { kept: true } },
    }));
    const statuses: number[] = [];
    for (const method of ["a", "b", "c"]) {
      const r = await handler.fetch(modern(method));
      statuses.push(r.status);
      expect((await r.json()).error).toEqual({
        code: codes.get(method),
        message: method,
        data: { kept: true },
      });
    }
    expect(statuses).toEqual([404, 400, 200]);
  });

  it("closing the response stream aborts the signal handle was given (the 2026-07-28 cancel)", async () => {
    let aborted!: (reason: unknown) => void;
    const gotAbort = new Promise((r) => (aborted = r));
    const { handler } = serve((_m, context) => {
      context.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 0 } });
      return new Promise((resolve) =>
        context.signal.addEventListener("abort", () => {
          aborted(context.signal.reason);
          resolve(undefined);
        }),
      );
    });
    const r = await handler.fetch(modern("slow", 4));
    const reader = r.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(String(await gotAbort)).toContain("closed the response stream");
  });

  it("a throwing or rejecting handle is a generic 500, its detail to onError", async () => {
    const errors: Error[] = [];
    const { handler } = serve(
      (m) => {
        if (m.method === "sync") throw new Error("sync detail");
        return Promise.reject(new Error("async detail"));
      },
      { onError: (e) => errors.push(e) },
    );
    for (const method of ["sync", "async"]) {
      const r = await handler.fetch(modern(method, 9));
      expect(r.status).toBe(500);
      expect(await r.json()).toEqual({
        jsonrpc: "2.0",
        id: 9,
        error: { code: -32603, message: "Internal error" },
      });
    }
    expect(errors.map((e) => e.message)).toEqual(["sync detail", "async detail"]);
  });

  it("a notification is handed to handle and answered 202", async () => {
    const { handler, handled } = serve(() => undefined);
    const r = await handler.fetch(modern("notifications/cancelled", null));
    expect(r.status).toBe(202);
    expect(handled.map((h) => h.message.method)).toEqual(["notifications/cancelled"]);
  });

  it("handler.close() aborts a request in flight and ends its reply", async () => {
    let started!: () => void;
    const didStart = new Promise<void>((r) => (started = r));
    let signal: AbortSignal | undefined;
    const { handler } = serve((_m, context) => {
      signal = context.signal;
      started();
      return new Promise(() => {});
    });
    const reply = handler.fetch(modern("hang", 5));
    await didStart;
    await handler.close();
    expect((await reply).status).toBe(500);
    expect(signal?.aborted).toBe(true);
  });

  it("legacy sessions go to server.connect when no connect is given", async () => {
    const { handler, connected, handled } = serve(() => undefined);
    const { sessionId } = await rawInitialize((i, init) => handler.fetch(new Request(i, init)), URL_, LEGACY);
    expect(sessionId).toBeTruthy();
    expect(connected).toHaveLength(1);
    expect(handled).toHaveLength(0);
  });

  it("needs server or connect", () => {
    expect(() => createStreamableHttpHandler({})).toThrow(/`server` or `connect`/);
  });
});
