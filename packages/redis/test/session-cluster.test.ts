// Legacy (2025-11-25) Streamable HTTP sessions across three real server processes behind a no-stickiness
// round-robin proxy, sharing a real Redis (session store, event store, notification bus). The client is raw
// fetch, so every request's instance is known and every byte is the server's.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture, type RoundRobinProxy, startRoundRobinProxy } from "@mcpkit/test-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openRedis, type RedisConnection } from "../src/index.js";
import { type Message, Reply, until } from "./http-reply.js";
import { killInstance, startInstance } from "./instances.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

const here = dirname(fileURLToPath(import.meta.url));
const LEGACY = "2025-11-25";
const IDLE_MS = 4_000;

describeRedis("legacy sessions across three instances behind a round-robin proxy", () => {
  const prefix = testPrefix();
  const children: ChildProcess[] = [];
  let proxy: RoundRobinProxy;
  let redis: RedisConnection;
  let sessionId = "";
  let nextId = 0;

  function send(
    method: "POST" | "GET" | "DELETE",
    body?: Message,
    extra: Record<string, string> = {},
    session = sessionId,
    signal?: AbortSignal,
  ): Promise<Reply> {
    const headers: Record<string, string> = {
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LEGACY,
      ...extra,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (session !== "") headers["mcp-session-id"] = session;
    const init: RequestInit = { method, headers };
    if (signal !== undefined) init.signal = signal;
    if (body !== undefined) init.body = JSON.stringify(body);
    return fetch(`${proxy.url}/mcp`, init).then((response) => new Reply(response));
  }

  const request = (method: string, params: Message = {}, session = sessionId) =>
    send("POST", { jsonrpc: "2.0", id: ++nextId, method, params }, {}, session);
  const notify = (method: string, params: Message = {}) => send("POST", { jsonrpc: "2.0", method, params });
  const call = (name: string) => request("tools/call", { name, arguments: {} });

  async function open(): Promise<string> {
    const init = await send(
      "POST",
      {
        jsonrpc: "2.0",
        id: ++nextId,
        method: "initialize",
        params: {
          protocolVersion: LEGACY,
          capabilities: { elicitation: {} },
          clientInfo: { name: "cluster-test", version: "1" },
        },
      },
      {},
      "",
    );
    expect(await init.next()).toMatchObject({ result: { protocolVersion: LEGACY } });
    expect(init.sessionId).toBeTruthy();
    const id = init.sessionId!;
    const initialized = await send("POST", { jsonrpc: "2.0", method: "notifications/initialized" }, {}, id);
    expect(initialized.status).toBe(202);
    return id;
  }

  beforeAll(async () => {
    redis = await openRedis(REDIS_URL);
    const entry = await bundleFixture(join(here, "fixtures", "session-server.ts"));
    const urls = await Promise.all(
      [0, 1, 2].map(async (instance) => {
        const started = await startInstance(entry, {
          INSTANCE: String(instance),
          PREFIX: prefix,
          IDLE_MS: String(IDLE_MS),
          REDIS_URL,
        });
        children[instance] = started.child;
        return started.url;
      }),
    );
    proxy = await startRoundRobinProxy({ upstreams: urls });
    sessionId = await open();
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(children.map(killInstance));
    await dropPrefix(redis, prefix);
    await redis.close();
  });

  it("serves initialize, tools/list and tools/call of one session on every instance", async () => {
    const first = proxy.log.length;
    const list = await request("tools/list");
    expect((await list.next())?.result.tools.map((t: { name: string }) => t.name)).toContain("ask");
    const served = new Set<number>();
    for (let i = 0; i < 3; i++) {
      const reply = await call("whoami");
      // The tool ran where the request landed.
      expect(await reply.next()).toMatchObject({
        result: { content: [{ type: "text", text: String(reply.instance) }] },
      });
      served.add(reply.instance);
    }
    expect(served).toEqual(new Set([0, 1, 2]));
    // initialize, initialized and these four went to different instances in turn, every one answered.
    expect(proxy.log.slice(first).every((entry) => entry.status === 200)).toBe(true);
  });

  it("holds logging/setLevel sent to one instance on the others", async () => {
    const set = await request("logging/setLevel", { level: "error" });
    expect(await set.next()).toMatchObject({ result: {} });
    for (let i = 0; i < 2; i++) {
      const reply = await call("log");
      expect(reply.instance).not.toBe(set.instance);
      const messages = await reply.rest();
      const logged = messages.filter((m) => m.method === "notifications/message").map((m) => m.params.level);
      expect(logged).toEqual(["error"]);
      expect(messages.at(-1)).toMatchObject({ result: { content: [{ text: String(reply.instance) }] } });
    }
  });

  it("tells the GET stream, held on one instance, of an update raised on another to a subscription made on a third", async () => {
    const abort = new AbortController();
    const stream = await send("GET", undefined, {}, sessionId, abort.signal);
    expect(stream.status).toBe(200);
    const subscribe = await request("resources/subscribe", { uri: "file:///watched" });
    expect(await subscribe.next()).toMatchObject({ result: {} });
    let touch: Reply;
    do touch = await call("touch");
    while (touch.instance === stream.instance || touch.instance === subscribe.instance);
    await touch.rest();
    const updated = (m: Message) => m.method === "notifications/resources/updated";
    expect(await stream.next(updated)).toMatchObject({ params: { uri: "file:///watched" } });
    expect(new Set([stream.instance, subscribe.instance, touch.instance]).size).toBe(3);
    // One notification per update, whichever instances hold a replica of the session: a second update
    // brings exactly one more, and after a round trip through every instance nothing else has come.
    await (await call("touch")).rest();
    expect(await stream.next(updated)).toBeDefined();
    for (let i = 0; i < 3; i++) await (await call("whoami")).rest();
    abort.abort();
    expect((await stream.rest()).filter(updated)).toEqual([]);
  });

  it("routes the answer to an elicitation, POSTed to another instance, to the tool waiting on its own", async () => {
    const ask = await call("ask");
    const elicitation = await ask.next((m) => m.method === "elicitation/create");
    expect(elicitation?.id).toMatch(/~\d+$/);
    const answer = await send("POST", {
      jsonrpc: "2.0",
      id: elicitation!.id,
      result: { action: "accept", content: { name: "Ada" } },
    });
    expect(answer.status).toBe(202);
    expect(answer.instance).not.toBe(ask.instance);
    expect(await ask.next((m) => "result" in m)).toMatchObject({
      result: { content: [{ type: "text", text: `Hello, Ada, from ${ask.instance}` }] },
    });
  });

  it("brings notifications/cancelled, POSTed to another instance, to the request running on its own", async () => {
    await redis.del(`${prefix}aborted`);
    const hang = await call("hang");
    const requestId = nextId;
    const cancel = await notify("notifications/cancelled", { requestId, reason: "test" });
    expect(cancel.status).toBe(202);
    expect(cancel.instance).not.toBe(hang.instance);
    expect(
      await until(
        () => redis.get(`${prefix}aborted`),
        (v) => v !== null,
      ),
    ).toBe(String(hang.instance));
    // The cancelled request is never answered: its stream ends without a response.
    expect((await hang.rest()).filter((m) => m.id === requestId)).toEqual([]);
  });

  it("ends the session everywhere on DELETE through one instance", async () => {
    const session = await open();
    const warm = await request("tools/list", {}, session);
    await warm.rest();
    const ended = await send("DELETE", undefined, {}, session);
    expect(ended.status).toBe(200);
    const after = [];
    for (let i = 0; i < 3; i++) after.push(await request("tools/list", {}, session));
    expect(after.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(new Set(after.map((r) => r.instance))).toEqual(new Set([0, 1, 2]));
  });

  it("expires an idle session on every instance", async () => {
    const session = await open();
    const key = `${prefix}session:{${session}}`;
    expect(await redis.exists(key)).toBe(1);
    expect(
      await until(
        () => redis.exists(key),
        (n) => n === 0,
        IDLE_MS * 4,
      ),
    ).toBe(0);
    const after = [];
    for (let i = 0; i < 3; i++) after.push(await request("tools/list", {}, session));
    expect(after.map((r) => r.status)).toEqual([404, 404, 404]);
  });

  it("fails, not hangs, a request whose instance is killed while it waits for an elicitation", async () => {
    const session = await open();
    const ask = await request("tools/call", { name: "ask", arguments: {} }, session);
    const elicitation = await ask.next((m) => m.method === "elicitation/create");
    expect(elicitation).toBeDefined();
    const victim = children[ask.instance]!;
    const exited = once(victim, "exit");
    victim.kill("SIGKILL");
    await exited;
    // The response stream breaks with the instance; no answer comes.
    expect(await ask.next((m) => "result" in m || "error" in m)).toBeUndefined();
    // A client resumes it by GET with Last-Event-ID (as @mcpkit/client does): another instance replays what
    // it has and ends the stream, so the client's retries run out instead of waiting for ever.
    expect(ask.lastEventId).not.toBe("");
    const resumed = await send("GET", undefined, { "last-event-id": ask.lastEventId }, session);
    expect(resumed.status).toBe(200);
    expect(resumed.instance).not.toBe(ask.instance);
    expect((await resumed.rest()).filter((m) => "result" in m || "error" in m)).toEqual([]);
    // The answer, routed to the dead instance, is dropped; the session lives on elsewhere.
    const late = await send(
      "POST",
      { jsonrpc: "2.0", id: elicitation!.id, result: { action: "decline" } },
      {},
      session,
    );
    expect(late.status).toBe(202);
    const still = await request("tools/call", { name: "whoami", arguments: {} }, session);
    expect(await still.next()).toMatchObject({ result: { content: [{ text: String(still.instance) }] } });
  });
});
