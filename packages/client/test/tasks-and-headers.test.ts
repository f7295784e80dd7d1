import type { Transport } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient, InvalidResultError, TaskCancelledError } from "../src/index.js";
import { discoverHandler, type Handler, legacyHandlers, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

const task = (status: string, extra: Record<string, unknown> = {}) => ({
  taskId: "t1",
  status,
  createdAt: "2026-01-01T00:00:00Z",
  lastUpdatedAt: "2026-01-01T00:00:00Z",
  ttlMs: null,
  pollIntervalMs: 10,
  ...extra,
});

describe("tasks (extension, modern)", () => {
  async function taskServer(states: Array<Record<string, unknown>>, tasks = true) {
    const r = await responder({
      "server/discover": discoverHandler(),
      "tools/call": () => ({ resultType: "task", ...task("working") }),
      "tasks/get": () => ({ resultType: "complete", ...(states.length > 1 ? states.shift()! : states[0]!) }),
      "tasks/update": () => ({ resultType: "complete" }),
      "tasks/cancel": () => ({ resultType: "complete" }),
    });
    open.push(r);
    const c = createClient({
      name: "t",
      version: "1",
      tasks,
      handlers: {
        elicitation: (p) => ({ action: "accept", content: { said: (p as { message: string }).message } }),
      },
    });
    open.push(c);
    await c.connect(r.transport);
    return { c, r };
  }

  it("awaits a task from tools/call, answering its input requests once with tasks/update", async () => {
    const ask = {
      method: "elicitation/create",
      params: { message: "sure?", requestedSchema: { type: "object", properties: {} } },
    };
    const { c, r } = await taskServer([
      task("working"),
      task("input_required", { inputRequests: { q1: ask } }),
      // A later poll may repeat the key: it is not answered twice.
      task("input_required", { inputRequests: { q1: ask } }),
      task("completed", { result: { content: [{ type: "text", text: "done" }], isError: false } }),
    ]);
    const statuses: string[] = [];
    const result = await c.callTool("long", {}, {});
    expect(result.content).toBe("done");
    const updates = r.requests("tasks/update");
    expect(updates).toHaveLength(1);
    expect(updates[0]!.params).toMatchObject({
      taskId: "t1",
      inputResponses: { q1: { action: "accept", content: { said: "sure?" } } },
    });
    await c.awaitTask("t1", { onStatus: (t) => statuses.push(t.status) });
    expect(statuses).toEqual(["completed"]);
  });

  it("a failed task throws its McpError; a cancelled one TaskCancelledError", async () => {
    const { c } = await taskServer([task("failed", { error: { code: -32603, message: "boom" } })]);
    await expect(c.callTool("x")).rejects.toMatchObject({ code: -32603, message: "boom" });
    await expect(c.callTool("x")).rejects.toBeInstanceOf(McpError);
    const { c: c2 } = await taskServer([task("cancelled")]);
    await expect(c2.awaitTask("t1")).rejects.toBeInstanceOf(TaskCancelledError);
  });

  it("getTask, updateTask, cancelTask send the extension methods", async () => {
    const { c, r } = await taskServer([task("working")]);
    expect((await c.getTask("t1")).status).toBe("working");
    await c.updateTask("t1", { k: { action: "decline" } });
    await c.cancelTask("t1");
    expect(r.requests("tasks/cancel")[0]!.params.taskId).toBe("t1");
    expect(r.requests("tasks/update")[0]!.params.inputResponses).toEqual({ k: { action: "decline" } });
  });

  it("rejects a task the client did not ask for", async () => {
    const { c } = await taskServer([task("working")], false);
    await expect(c.callTool("x")).rejects.toBeInstanceOf(InvalidResultError);
  });

  it("legacy: awaitTask uses the blocking tasks/result", async () => {
    const r = await responder({
      ...legacyHandlers({ tools: {}, tasks: {} }),
      "tasks/result": () => ({ content: [{ type: "text", text: "legacy result" }] }),
    });
    open.push(r);
    const c = createClient({ name: "t", version: "1" });
    open.push(c);
    await c.connect(r.transport);
    expect((await c.awaitTask("t9")).content).toBe("legacy result");
    await expect(c.updateTask("t9", {})).rejects.toThrow(/extension/);
  });
});

describe("x-mcp-header (modern HTTP)", () => {
  const tools = [
    {
      name: "good",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          n: { type: "integer", "x-mcp-header": "N" },
        },
      },
    },
    {
      name: "bad",
      inputSchema: { type: "object", properties: { v: { type: "object", "x-mcp-header": "V" } } },
    },
  ];
  const handlers: Record<string, Handler> = {
    "server/discover": discoverHandler(),
    "tools/list": () => ({ resultType: "complete", tools }),
    "tools/call": () => ({ resultType: "complete", content: [] }),
  };

  it("drops tools with invalid annotations and passes Mcp-Param headers down with the send", async () => {
    const r = await responder(handlers, { perRequestStream: true });
    open.push(r);
    const sent: Record<string, Readonly<Record<string, string>> | undefined> = {};
    const inner = r.transport;
    const http: Transport = {
      traits: { perRequestStream: true, perRequestHeaders: true },
      start: (sink) => inner.start(sink),
      send: (m, o) => {
        if ("method" in m && "id" in m) sent[`${m.method} ${JSON.stringify(m.params)}`] = o?.headers;
        return inner.send(m, o);
      },
      close: (reason) => inner.close(reason),
    };
    const headersOf = (method: string, params: Record<string, unknown>) => {
      const key = Object.keys(sent).find(
        (k) => k.startsWith(method) && k.includes(JSON.stringify(params).slice(1, -1)),
      );
      return key === undefined ? undefined : sent[key];
    };
    const dropped: Error[] = [];
    const c = createClient({ name: "t", version: "1", onError: (e) => dropped.push(e) });
    open.push(c);
    await c.connect(http);
    expect((await c.listTools()).map((t) => t.name)).toEqual(["good"]);
    expect(dropped[0]!.message).toContain('"bad"');
    await c.callTool("good", { region: "eu  west", n: 7 });
    expect(headersOf("tools/call", { name: "good", arguments: { region: "eu  west", n: 7 } })).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "good",
      "mcp-param-region": "eu  west",
      "mcp-param-n": "7",
    });
    await c.callTool("good", { region: "München", n: null });
    expect(headersOf("tools/call", { name: "good", arguments: { region: "München", n: null } })).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "good",
      "mcp-param-region": "=?base64?TcO8bmNoZW4=?=",
    });
    expect(headersOf("tools/list", {})).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    });
  });

  it("keeps every tool over a stream transport (the rule is HTTP's)", async () => {
    const r = await responder(handlers);
    open.push(r);
    const c = createClient({ name: "t", version: "1" });
    open.push(c);
    await c.connect(r.transport);
    expect((await c.listTools()).map((t) => t.name)).toEqual(["good", "bad"]);
  });
});
