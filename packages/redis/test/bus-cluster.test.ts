// Notifications across three real server processes sharing a real Redis bus: a modern listen stream held
// through a no-stickiness round-robin proxy, and a legacy session held by one instance, are told of what
// another instance raised.
import type { ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture, INSTANCE_HEADER, type RoundRobinProxy, startRoundRobinProxy } from "@mcpkit/test-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { killInstance, startInstance } from "./instances.js";
import { describeRedis, REDIS_URL, testPrefix } from "./redis.js";

const here = dirname(fileURLToPath(import.meta.url));
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
  "io.modelcontextprotocol/clientInfo": { name: "bus-cluster-test", version: "1" },
};

type Message = { id?: number; method?: string; params?: any; result?: any; error?: any };

/** Reads JSON-RPC messages off an SSE response one at a time; each read fails after `ms` instead of hanging. */
function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const read = async (): Promise<Message> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        // Priming events and keep-alive comments carry no message.
        if (data !== "") return JSON.parse(data) as Message;
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) throw new Error("the stream ended");
      buffer += chunk.value.replace(/\r\n/g, "\n");
    }
  };
  return {
    next(ms = 10_000): Promise<Message> {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no message within ${ms} ms`)), ms);
      });
      return Promise.race([read(), bound]).finally(() => clearTimeout(timer));
    },
  };
}

/** The answer to request `id` in a JSON or SSE response. */
async function answerOf(response: Response, id: number): Promise<Message> {
  if (response.headers.get("content-type")?.startsWith("application/json"))
    return (await response.json()) as Message;
  const stream = sseReader(response);
  for (;;) {
    const message = await stream.next();
    if (message.id === id) return message;
  }
}

describeRedis("notifications across three instances on the Redis bus", () => {
  const prefix = testPrefix();
  const children: ChildProcess[] = [];
  const streams: AbortController[] = [];
  let urls: string[];
  let proxy: RoundRobinProxy;
  let id = 0;

  /** A modern request to `base` (the proxy or one instance); the instance that served it comes back too. */
  async function modern(base: string, method: string, params: Record<string, unknown>, signal?: AbortSignal) {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
    };
    if (method === "tools/call") headers["mcp-name"] = String(params.name);
    const requestId = ++id;
    const response = await fetch(`${base}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: requestId, method, params: { ...params, _meta: META } }),
      ...(signal === undefined ? {} : { signal }),
    });
    return { response, requestId, instance: response.headers.get(INSTANCE_HEADER) };
  }

  async function call(base: string, name: string, args: Record<string, unknown>) {
    const { response, requestId, instance } = await modern(base, "tools/call", { name, arguments: args });
    const answer = await answerOf(response, requestId);
    expect(answer.result?.isError).toBeFalsy();
    return { instance, text: answer.result.content[0].text as string };
  }

  beforeAll(async () => {
    const entry = await bundleFixture(join(here, "fixtures", "bus-server.ts"));
    urls = await Promise.all(
      [0, 1, 2].map(async (instance) => {
        const started = await startInstance(entry, { INSTANCE: String(instance), PREFIX: prefix, REDIS_URL });
        children[instance] = started.child;
        return started.url;
      }),
    );
    proxy = await startRoundRobinProxy({ upstreams: urls });
  });

  afterAll(async () => {
    for (const controller of streams) controller.abort();
    await proxy?.close();
    await Promise.all(children.map(killInstance));
  });

  it("a listen stream held through the proxy is told once of updates and list changes raised on other instances", async () => {
    const controller = new AbortController();
    streams.push(controller);
    const notifications = { resourceSubscriptions: ["demo://a", "demo://b"], toolsListChanged: true };
    const opened = await modern(proxy.url, "subscriptions/listen", { notifications }, controller.signal);
    const holder = Number(opened.instance);
    const stream = sseReader(opened.response);
    const ack = await stream.next();
    expect(ack.method).toBe("notifications/subscriptions/acknowledged");
    const tag = { "io.modelcontextprotocol/subscriptionId": opened.requestId };

    // Raised on the holder itself: told once, although the bus echoes it back to the holder.
    const local = await call(urls[holder]!, "touch", { uri: "demo://a" });
    expect(local.text).toBe(`touched demo://a on ${holder}`);
    // Raised on another instance, as the proxy routed it.
    const remote = await call(proxy.url, "touch", { uri: "demo://b" });
    expect(Number(remote.instance)).not.toBe(holder);
    expect(remote.text).toBe(`touched demo://b on ${remote.instance}`);
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "demo://a", _meta: tag },
    });
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "demo://b", _meta: tag },
    });

    const grown = await call(proxy.url, "grow", { name: "fresh" });
    expect(Number(grown.instance)).not.toBe(holder);
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: tag },
    });
    // The proxy's own record: the stream was served by one instance, the changes by others.
    const served = proxy.log.map((r) => r.instance);
    expect(served[0]).toBe(holder);
    expect(served.slice(1).every((i) => i !== holder)).toBe(true);
  });

  it("a task's status change on the instance running it reaches a listen stream held by another", async () => {
    const created = await modern(proxy.url, "tools/call", { name: "wait", arguments: {} });
    const task = (await answerOf(created.response, created.requestId)).result;
    expect(task).toMatchObject({ resultType: "task", status: "working" });
    const runner = Number(created.instance);
    const controller = new AbortController();
    streams.push(controller);
    const opened = await modern(
      proxy.url,
      "subscriptions/listen",
      { notifications: { taskIds: [task.taskId] } },
      controller.signal,
    );
    expect(Number(opened.instance)).not.toBe(runner);
    const stream = sseReader(opened.response);
    expect((await stream.next()).params.notifications).toEqual({ taskIds: [task.taskId] });
    await call(urls[runner]!, "release", {});
    const told = await stream.next();
    expect(told).toMatchObject({
      method: "notifications/tasks",
      params: {
        taskId: task.taskId,
        status: "completed",
        result: { content: [{ type: "text", text: `released on ${runner}` }] },
        _meta: { "io.modelcontextprotocol/subscriptionId": opened.requestId },
      },
    });
    expect(told.params).not.toHaveProperty("owner");
  });

  it("a legacy session subscribed on one instance is told of an update raised on another", async () => {
    const [holder, raiser] = [urls[0]!, urls[1]!];
    const post = async (body: object, session?: string) => {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": LEGACY,
      };
      if (session !== undefined) headers["mcp-session-id"] = session;
      return fetch(`${holder}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
    };
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "legacy", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    expect((await answerOf(init, 1)).result.protocolVersion).toBe(LEGACY);
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);

    const controller = new AbortController();
    streams.push(controller);
    const get = await fetch(`${holder}/mcp`, {
      headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": LEGACY },
      signal: controller.signal,
    });
    expect(get.status).toBe(200);
    const stream = sseReader(get);

    const subscribed = await post(
      { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "demo://b" } },
      session,
    );
    expect((await answerOf(subscribed, 2)).result).toEqual({});

    const touched = await call(raiser, "touch", { uri: "demo://b" });
    expect(touched.text).toBe("touched demo://b on 1");
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "demo://b" },
    });
  });
});
