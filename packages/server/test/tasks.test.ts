import { McpError } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryTaskStore, createServer, type Server } from "../src/index.js";
import { connectClient, meta, modernCall } from "./helpers.js";

const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const WITH_EXT = { ...EXT, elicitation: {} };

let server: Server;
afterEach(async () => {
  await server?.close();
});

function tasksServer(): Server {
  const s = createServer({
    name: "tasks",
    version: "1",
    tasks: { store: createInMemoryTaskStore(), pollIntervalMs: 50 },
  });
  s.registerTool(
    "greet",
    { inputSchema: { type: "object", properties: { name: { type: "string" } } } },
    (a) => `Hello, ${String(a.name)}!`,
  );
  s.registerTool(
    "wait",
    { taskSupport: "optional" },
    (_a, ctx) =>
      new Promise((resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
        gate.then(() => resolve("waited"));
      }),
  );
  s.registerTool("failing_job", { taskSupport: "required" }, () => {
    throw new Error("job failed");
  });
  s.registerTool("protocol_error_job", { taskSupport: "optional" }, () => {
    throw new McpError(-32603, "Internal error", { reason: "panic" });
  });
  s.registerTool("confirm", { taskSupport: "optional" }, async (_a, ctx) => {
    const schema = { type: "object" as const, properties: { ok: { type: "boolean" as const } } };
    const [a, b] = await Promise.all([
      ctx.elicit({ message: "a?", requestedSchema: schema }),
      ctx.elicit({ message: "b?", requestedSchema: schema }),
    ]);
    return `${a.action}/${b.action}`;
  });
  s.registerTool("mrtr_then_task", { taskSupport: "required", taskMode: "manual" }, async (_a, ctx) => {
    const r = await ctx.elicit(
      { message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      { key: "user_name" },
    );
    const asTask = await ctx.startTask();
    return `Hello ${String(r.content?.name)} (task: ${asTask}, id set: ${ctx.task !== undefined})`;
  });
  return s;
}

let release!: () => void;
let gate = new Promise<void>((r) => (release = r));
afterEach(() => {
  gate = new Promise<void>((r) => (release = r));
});

const rpc = (method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = EXT) =>
  modernCall(server, method, params, { capabilities }).then((r) => r.response);

async function until(taskId: string, done: (task: any) => boolean): Promise<any> {
  for (;;) {
    const task = (await rpc("tasks/get", { taskId })).result;
    if (done(task)) return task;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("tasks extension", () => {
  it("[tasks:create] a task-supporting tool answers a flat CreateTaskResult; tasks/get inlines the result", async () => {
    server = tasksServer();
    const discover = (await rpc("server/discover", {})).result;
    expect(discover.capabilities.extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
    const created = (await rpc("tools/call", { name: "wait", arguments: {} })).result;
    expect(created).toEqual({
      resultType: "task",
      taskId: expect.any(String),
      status: "working",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      lastUpdatedAt: expect.any(String),
      ttlMs: 3_600_000,
      pollIntervalMs: 50,
    });
    expect((await rpc("tasks/get", { taskId: created.taskId })).result).toMatchObject({
      status: "working",
      resultType: "complete",
    });
    release();
    const done = await until(created.taskId, (t) => t.status === "completed");
    expect(done.result).toEqual({ content: [{ type: "text", text: "waited" }], resultType: "complete" });
    expect(done).not.toHaveProperty("requestState");
  });

  it("[tasks:sync-without-extension] without the extension an optional tool runs synchronously; a required one is -32021", async () => {
    server = tasksServer();
    release();
    expect((await rpc("tools/call", { name: "wait", arguments: {} }, {})).result).toEqual({
      content: [{ type: "text", text: "waited" }],
      resultType: "complete",
    });
    const error = (await rpc("tools/call", { name: "failing_job", arguments: {} }, {})).error;
    expect(error).toEqual({
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      expect((await rpc(method, { taskId: "x", inputResponses: {} }, {})).error.code).toBe(-32021);
    }
    expect((await rpc("tasks/result", { taskId: "x" })).error.code).toBe(-32601);
    expect((await rpc("tasks/list", {})).error.code).toBe(-32601);
    expect((await rpc("tasks/get", { taskId: "unknown" })).error.code).toBe(-32602);
  });

  it("[tasks:errors] a tool error is completed with isError; a protocol error is failed with the error", async () => {
    server = tasksServer();
    const failing = (await rpc("tools/call", { name: "failing_job", arguments: {} })).result;
    const t1 = await until(failing.taskId, (t) => t.status !== "working");
    expect(t1).toMatchObject({
      status: "completed",
      result: { isError: true, content: [{ type: "text", text: "job failed" }] },
    });
    const protocol = (await rpc("tools/call", { name: "protocol_error_job", arguments: {} })).result;
    const t2 = await until(protocol.taskId, (t) => t.status !== "working");
    expect(t2).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "Internal error", data: { reason: "panic" } },
    });
    expect(t2).not.toHaveProperty("result");
  });

  it("[tasks:cancel] tasks/cancel acks with an empty result, aborts the handler and is idempotent", async () => {
    server = tasksServer();
    const created = (await rpc("tools/call", { name: "wait", arguments: {} })).result;
    expect((await rpc("tasks/cancel", { taskId: created.taskId })).result).toEqual({
      resultType: "complete",
    });
    expect((await rpc("tasks/get", { taskId: created.taskId })).result.status).toBe("cancelled");
    expect((await rpc("tasks/cancel", { taskId: created.taskId })).result).toEqual({
      resultType: "complete",
    });
    release();
  });

  it("[tasks:input] a task's input requests are answered by tasks/update, partially or at once", async () => {
    server = tasksServer();
    const created = (await rpc("tools/call", { name: "confirm", arguments: {} }, WITH_EXT)).result;
    const waiting = await until(
      created.taskId,
      (t) => t.status === "input_required" && Object.keys(t.inputRequests).length === 2,
    );
    const [first, second] = Object.keys(waiting.inputRequests);
    expect(waiting.inputRequests[first!].method).toBe("elicitation/create");
    expect(
      (
        await rpc("tasks/update", {
          taskId: created.taskId,
          inputResponses: { [first!]: { action: "accept" }, unknown: { x: 1 } },
        })
      ).result,
    ).toEqual({
      resultType: "complete",
    });
    const partial = (await rpc("tasks/get", { taskId: created.taskId })).result;
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests)).toEqual([second]);
    await rpc("tasks/update", {
      taskId: created.taskId,
      inputResponses: { [second!]: { action: "decline" } },
    });
    const done = await until(created.taskId, (t) => t.status === "completed");
    expect(done.result.content[0].text).toBe("accept/decline");
  });

  it("[tasks:mrtr-composition] MRTR rounds run synchronously, then ctx.startTask() turns the call into a task", async () => {
    server = tasksServer();
    const r1 = (await rpc("tools/call", { name: "mrtr_then_task", arguments: {} }, WITH_EXT)).result;
    expect(r1.resultType).toBe("input_required");
    expect(r1).not.toHaveProperty("taskId");
    const r2 = (
      await rpc(
        "tools/call",
        {
          name: "mrtr_then_task",
          arguments: {},
          requestState: r1.requestState,
          inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
        },
        WITH_EXT,
      )
    ).result;
    expect(r2.resultType).toBe("task");
    expect(r2).not.toHaveProperty("requestState");
    const done = await until(r2.taskId, (t) => t.status === "completed");
    expect(done.result.content[0].text).toBe("Hello Alice (task: true, id set: true)");
  });

  it("[tasks:notifications] a listen stream with taskIds receives notifications/tasks for those tasks", async () => {
    server = tasksServer();
    const created = (await rpc("tools/call", { name: "wait", arguments: {} })).result;
    const client = await connectClient(server, { perRequestStream: true });
    try {
      const controller = new AbortController();
      const listen = client.peer
        .request(
          "subscriptions/listen",
          { _meta: meta(EXT), notifications: { taskIds: [created.taskId] } },
          { signal: controller.signal },
        )
        .catch(() => undefined);
      const ack = await client.next("notifications/subscriptions/acknowledged");
      expect(ack.notifications).toEqual({ taskIds: [created.taskId] });
      release();
      const note = await client.next("notifications/tasks");
      expect(note).toMatchObject({
        taskId: created.taskId,
        status: "completed",
        _meta: { "io.modelcontextprotocol/subscriptionId": expect.any(Number) },
      });
      controller.abort();
      await listen;
    } finally {
      await client.close();
    }
  });
});
