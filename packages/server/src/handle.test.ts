import type { JsonRpcNotification, JsonRpcRequest } from "@mcpkit/jsonrpc";
import type { ServerLike } from "@mcpkit/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { meta } from "../test/helpers.js";
import { createServer, type Server } from "./index.js";

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function fixture(errors: unknown[] = []): Server {
  const s = createServer({ name: "handle", version: "1", logger: { error: (_m, e) => errors.push(e) } });
  s.registerTool("echo", {}, (args: Record<string, unknown>) => String(args.text));
  s.registerTool("steps", {}, async (_args, ctx) => {
    await ctx.progress(1, 2, "half");
    return "done";
  });
  s.registerTool("boom", {}, () => {
    throw new Error("secret detail");
  });
  return s;
}

let nextId = 1;
function call(
  name: string,
  args: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): JsonRpcRequest {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { _meta: meta({}, extra), name, arguments: args },
  };
}

describe("Server.handle: a 2026-07-28 request as a function call", () => {
  it("answers a request with its response and makes no connection", async () => {
    server = fixture();
    const request = call("echo", { text: "hi" });
    const response = await server.handle(request, {});
    expect(response).toMatchObject({
      jsonrpc: "2.0",
      id: request.id,
      result: { content: [{ type: "text", text: "hi" }], resultType: "complete" },
    });
    expect(server.connectionCount).toBe(0);
  });

  it("answers a list synchronously (no promise when nothing waits, after the first request)", async () => {
    server = fixture();
    await server.handle(call("echo", { text: "warm" }));
    const list: JsonRpcRequest = { jsonrpc: "2.0", id: 99, method: "tools/list", params: { _meta: meta() } };
    const answer = server.handle(list);
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ id: 99, result: { resultType: "complete" } });
  });

  it("sends the request's notifications to context.notify before it resolves (progress)", async () => {
    server = fixture();
    const seen: JsonRpcNotification[] = [];
    const response = await server.handle(call("steps", {}, { progressToken: "p1" }), {
      notify: (n) => void seen.push(n),
    });
    expect(seen).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p1", progress: 1, total: 2, message: "half" },
      },
    ]);
    expect(response).toMatchObject({ result: { content: [{ text: "done" }] } });
  });

  it("answers envelope errors by code alone: -32602 without any HTTP hint, -32022, -32601", async () => {
    server = fixture();
    const noCaps = await server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    });
    expect(noCaps).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: 'Missing _meta["io.modelcontextprotocol/clientCapabilities"]' },
    });
    const legacy = await server.handle({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(legacy).toMatchObject({ id: 2, error: { code: -32602 } });
    expect((legacy as { error: { data?: unknown } }).error.data).toBeUndefined();
    const old = await server.handle({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/list",
      params: { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "2025-11-25" } },
    });
    expect(old).toMatchObject({ id: 3, error: { code: -32022 } });
    const unknown = await server.handle({
      jsonrpc: "2.0",
      id: 4,
      method: "no/such",
      params: { _meta: meta() },
    });
    expect(unknown).toMatchObject({ id: 4, error: { code: -32601 } });
  });

  it("turns a handler's unexpected throw into -32603 without detail and logs the detail", async () => {
    const errors: unknown[] = [];
    server = fixture(errors);
    server.registerPrompt("broken", {}, () => {
      throw new Error("prompt detail");
    });
    const response = await server.handle({
      jsonrpc: "2.0",
      id: 5,
      method: "prompts/get",
      params: { _meta: meta(), name: "broken" },
    });
    expect(response).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32603, message: "Internal error" } });
    expect(JSON.stringify(response)).not.toContain("detail");
    expect(errors.length).toBeGreaterThan(0);
  });

  it("answers nothing to a request cancelled through context.signal, and aborts its handler", async () => {
    server = fixture();
    let started!: () => void;
    const didStart = new Promise<void>((r) => (started = r));
    let reason: unknown;
    server.registerTool("hang", {}, (_args, ctx) => {
      started();
      return new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => {
          reason = ctx.signal.reason;
          reject(reason);
        }),
      );
    });
    const controller = new AbortController();
    const answer = server.handle(call("hang"), { signal: controller.signal });
    await didStart;
    controller.abort(new Error("client left"));
    expect(await answer).toBeUndefined();
    expect((reason as Error).message).toBe("client left");
  });

  it("answers a notification with undefined", async () => {
    server = fixture();
    const note: JsonRpcNotification = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { _meta: meta(), requestId: 1 },
    };
    expect(await server.handle(note)).toBeUndefined();
  });

  it("tells onMessage and the wire trace of every message in and out, from a tap made once", async () => {
    const events: Array<{ direction: string; message: unknown }> = [];
    const lines: string[] = [];
    server = createServer({
      name: "traced",
      version: "1",
      telemetry: false,
      onMessage: (e) => events.push({ direction: e.direction, message: e.message }),
      trace: (line) => lines.push(line),
    });
    server.registerTool("steps", {}, async (_args, ctx) => {
      await ctx.progress(1);
      return "done";
    });
    const request = call("steps", {}, { progressToken: 7 });
    await server.handle(request, { notify: () => {} });
    expect(events.map((e) => e.direction)).toEqual(["in", "out", "out"]);
    expect(events[0]!.message).toBe(request);
    expect(events[1]!.message).toMatchObject({ method: "notifications/progress" });
    expect(events[2]!.message).toMatchObject({ id: request.id, result: { resultType: "complete" } });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain("server http");
  });

  it("rejects after close(); an @mcpkit/server Server is the ServerLike the HTTP handler takes", async () => {
    server = fixture();
    const servable: ServerLike = server;
    expect(typeof servable.handle).toBe("function");
    await server.close();
    await expect(server.handle(call("echo", { text: "late" }))).rejects.toThrow(/after close/);
  });
});
