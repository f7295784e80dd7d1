// Tasks across three real server processes behind a no-stickiness round-robin proxy, sharing a real Redis.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mcpNameFor } from "@mcpkit/protocol";
import { bundleFixture, INSTANCE_HEADER, type RoundRobinProxy, startRoundRobinProxy } from "@mcpkit/test-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LEASE_LAPSED_MESSAGE, openRedis, type RedisConnection } from "../src/index.js";
import { killInstance, startInstance } from "./instances.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

const here = dirname(fileURLToPath(import.meta.url));
const MODERN = "2026-07-28";
const CAPABILITIES = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };

interface Answer {
  instance: number;
  result: any;
  error: any;
}

/** Polls `probe` until `done` holds, at most `ms` in all; the last value is returned either way. */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeRedis("tasks across three instances behind a round-robin proxy", () => {
  const prefix = testPrefix();
  const children: ChildProcess[] = [];
  let proxy: RoundRobinProxy;
  let redis: RedisConnection;
  let id = 0;

  async function rpc(method: string, params: Record<string, unknown>): Promise<Answer> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
    };
    const name = mcpNameFor(method, params);
    if (name !== undefined) headers["mcp-name"] = name;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
      "io.modelcontextprotocol/clientInfo": { name: "cluster-test", version: "1" },
    };
    const response = await fetch(`${proxy.url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } }),
    });
    const body = (await response.json()) as { result?: unknown; error?: unknown };
    return {
      instance: Number(response.headers.get(INSTANCE_HEADER)),
      result: body.result,
      error: body.error,
    };
  }

  const getTask = (taskId: string) => rpc("tasks/get", { taskId });

  beforeAll(async () => {
    redis = await openRedis(REDIS_URL);
    const entry = await bundleFixture(join(here, "fixtures", "task-server.ts"));
    const urls = await Promise.all(
      [0, 1, 2].map(async (instance) => {
        const started = await startInstance(entry, {
          INSTANCE: String(instance),
          PREFIX: prefix,
          LEASE_MS: "300",
          REDIS_URL,
        });
        children[instance] = started.child;
        return started.url;
      }),
    );
    proxy = await startRoundRobinProxy({ upstreams: urls });
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(children.map(killInstance));
    await dropPrefix(redis, prefix);
    await redis.close();
  });

  it("a task created on one instance is polled on another and its result read on a third", async () => {
    const created = await rpc("tools/call", { name: "work", arguments: { ms: 200 } });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.result.taskId as string;
    const polled = await getTask(taskId);
    expect(polled.instance).not.toBe(created.instance);
    expect(polled.result).toMatchObject({ taskId, resultType: "complete" });
    const done = await until(
      () => getTask(taskId),
      (a) => a.result?.status === "completed",
    );
    let read = done;
    for (let i = 0; i < 3 && [created.instance, polled.instance].includes(read.instance); i++) {
      read = await getTask(taskId);
    }
    expect(new Set([created.instance, polled.instance, read.instance]).size).toBe(3);
    expect(read.result).toMatchObject({
      status: "completed",
      result: { structuredContent: { done: true, ranOn: String(created.instance) } },
    });
  });

  it("a cancel handled by another instance fires the signal of the handler on the running one", async () => {
    const created = await rpc("tools/call", { name: "hang", arguments: {} });
    const taskId = created.result.taskId as string;
    const cancelled = await rpc("tasks/cancel", { taskId });
    expect(cancelled.instance).not.toBe(created.instance);
    expect(cancelled.result).toEqual({ resultType: "complete" });
    const aborted = await until(
      () => redis.get(`${prefix}aborted:${taskId}`),
      (v) => v !== null,
    );
    expect(aborted).toBe(String(created.instance));
    expect((await getTask(taskId)).result).toMatchObject({ status: "cancelled" });
  });

  it("an input_required task answered by tasks/update on another instance completes", async () => {
    const created = await rpc("tools/call", { name: "ask", arguments: {} });
    const taskId = created.result.taskId as string;
    const waiting = await until(
      () => getTask(taskId),
      (a) => a.result?.status === "input_required",
    );
    expect(waiting.result.inputRequests).toMatchObject({ "elicit-0": { method: "elicitation/create" } });
    // Round robin: the next request goes to the instance after the last one; keep it off the running one.
    if ((waiting.instance + 1) % 3 === created.instance) await getTask(taskId);
    const updated = await rpc("tasks/update", {
      taskId,
      inputResponses: { "elicit-0": { action: "accept", content: { name: "Ada" } } },
    });
    expect(updated.instance).not.toBe(created.instance);
    expect(updated.result).toEqual({ resultType: "complete" });
    const done = await until(
      () => getTask(taskId),
      (a) => a.result?.status === "completed",
    );
    expect(done.result.result.structuredContent).toEqual({
      greeting: "Hello, Ada!",
      ranOn: String(created.instance),
    });
  });

  it("an instance SIGKILLed mid-task leaves the task failed once its lease lapses", async () => {
    const created = await rpc("tools/call", { name: "hang", arguments: {} });
    const taskId = created.result.taskId as string;
    const victim = children[created.instance]!;
    const exited = once(victim, "exit");
    victim.kill("SIGKILL");
    await exited;
    const failed = await until(
      () => getTask(taskId),
      (a) => a.result?.status === "failed",
    );
    expect(failed.instance).not.toBe(created.instance);
    expect(failed.result).toMatchObject({
      status: "failed",
      statusMessage: LEASE_LAPSED_MESSAGE,
      error: { message: LEASE_LAPSED_MESSAGE },
    });
  });
});
