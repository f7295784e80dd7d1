import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mcpNameFor } from "@mcpkit/protocol";
import { bundleFixture, type RoundRobinProxy, startRoundRobinProxy } from "@mcpkit/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRedis, type RedisConnection } from "../src/index.js";
import { type Message, Reply, until } from "./http-reply.js";
import { type Instance, killInstance, startInstance } from "./instances.js";
import { type PrivateRedis, redisServerMissing, startPrivateRedis } from "./private-redis.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

const here = dirname(fileURLToPath(import.meta.url));
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";
/** Every request of these tests is answered within this, or the test fails (no hang). */
const BOUND_MS = 5_000;

/** A raw legacy client of one endpoint: every request bounded by {@link BOUND_MS}. */
function legacyClient(base: () => string) {
  let nextId = 0;
  const client = {
    sessionId: "",
    send(
      method: "POST" | "GET",
      body?: Message,
      extra: Record<string, string> = {},
      signal: AbortSignal = AbortSignal.timeout(BOUND_MS),
    ): Promise<Reply> {
      const headers: Record<string, string> = {
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": LEGACY,
        ...extra,
      };
      if (body !== undefined) headers["content-type"] = "application/json";
      if (client.sessionId !== "") headers["mcp-session-id"] = client.sessionId;
      const init: RequestInit = { method, headers, signal };
      if (body !== undefined) init.body = JSON.stringify(body);
      return fetch(`${base()}/mcp`, init).then((response) => new Reply(response));
    },
    request(method: string, params: Message = {}): Promise<Reply> {
      return client.send("POST", { jsonrpc: "2.0", id: ++nextId, method, params });
    },
    async open(): Promise<void> {
      client.sessionId = "";
      const init = await client.request("initialize", {
        protocolVersion: LEGACY,
        capabilities: {},
        clientInfo: { name: "fault-test", version: "1" },
      });
      expect(await init.next()).toMatchObject({ result: { protocolVersion: LEGACY } });
      client.sessionId = init.sessionId!;
      const initialized = await client.send("POST", { jsonrpc: "2.0", method: "notifications/initialized" });
      expect(initialized.status).toBe(202);
    },
  };
  return client;
}

const updated = (m: Message) => m.method === "notifications/resources/updated";

describeRedis("an instance SIGKILLed while it holds a legacy session's GET stream", () => {
  const prefix = testPrefix();
  const instances: Instance[] = [];
  let proxy: RoundRobinProxy;
  let redis: RedisConnection;
  const client = legacyClient(() => proxy.url);
  const touch = async (n: number) => {
    const reply = await client.request("tools/call", { name: "touch", arguments: { uri: `file:///n/${n}` } });
    const answer = (await reply.rest()).at(-1);
    expect(answer?.result.content[0].text).toMatch(`touched file:///n/${n}`);
  };

  beforeAll(async () => {
    redis = await openRedis(REDIS_URL);
    const entry = await bundleFixture(join(here, "fixtures", "fault-server.ts"));
    for (const i of [0, 1, 2]) {
      instances.push(
        await startInstance(
          entry,
          { INSTANCE: String(i), PREFIX: prefix, REDIS_URL },
          { captureStderr: true },
        ),
      );
    }
    proxy = await startRoundRobinProxy({ upstreams: instances.map((i) => i.url) });
    await client.open();
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(instances.map((i) => killInstance(i.child)));
    await dropPrefix(redis, prefix);
    await redis.close();
  });

  it("resumes on another instance with exactly the stored events missed, in order, once each, then live ones", async () => {
    for (let n = 1; n <= 6; n++) {
      const subscribed = await client.request("resources/subscribe", { uri: `file:///n/${n}` });
      expect(await subscribed.next()).toMatchObject({ result: {} });
    }
    const abortFirst = new AbortController();
    const stream = await client.send("GET", undefined, {}, abortFirst.signal);
    expect(stream.status).toBe(200);
    const holder = stream.instance;
    const seen: Message[] = [];
    for (const n of [1, 2, 3]) {
      await touch(n);
      const message = await stream.next(updated);
      expect(message?.params.uri).toBe(`file:///n/${n}`);
      seen.push(message!);
    }
    const ids = seen.map((m) => stream.idOf.get(m)!);
    expect(new Set(ids).size).toBe(3);
    const record = `${prefix}session:{${client.sessionId}}`;
    const heldBy = await redis.hGet(record, "h");
    expect(heldBy).toBeTruthy();

    // The holder dies mid-stream; the client saw event 1 and lost 2 and 3 with the connection.
    await killInstance(instances[holder]!.child);
    expect(await stream.next(updated)).toBeUndefined();

    const abortResumed = new AbortController();
    const resumed = await client.send("GET", undefined, { "last-event-id": ids[0]! }, abortResumed.signal);
    expect(resumed.status).toBe(200);
    expect(resumed.instance).not.toBe(holder);
    const replayed = [await resumed.next(updated), await resumed.next(updated)];
    expect(replayed.map((m) => m?.params.uri)).toEqual(["file:///n/2", "file:///n/3"]);
    // The very events stored before the kill, under their own ids.
    expect(replayed.map((m) => resumed.idOf.get(m!))).toEqual([ids[1], ids[2]]);

    // The instance that resumed holds the stream now: updates raised anywhere reach it, live.
    await until(
      () => redis.hGet(record, "h"),
      (h) => h !== null && h !== heldBy,
    );
    for (const n of [4, 5]) {
      await touch(n);
      expect((await resumed.next(updated))?.params.uri).toBe(`file:///n/${n}`);
    }
    // Nothing twice: after a request through each live instance, nothing else came.
    for (let i = 0; i < 2; i++)
      await (await client.request("tools/call", { name: "whoami", arguments: {} })).rest();
    abortFirst.abort();
    abortResumed.abort();
    expect((await resumed.rest()).filter(updated)).toEqual([]);
  });

  it("sends the priming event of a POST stream before a handler's closeSseStream cuts it", async () => {
    const reply = await client.request("tools/call", { name: "reconnect", arguments: {} });
    expect(reply.status).toBe(200);
    await reply.rest();
    // The client has an id to resume from, although the event store answers asynchronously (Redis).
    expect(reply.primingIds).toHaveLength(1);
  });
});

const missing = redisServerMissing();
if (missing !== undefined && process.env.CI === "true") throw new Error(`CI needs redis-server: ${missing}`);
if (missing !== undefined) console.warn(`Skipping the Redis restart test: ${missing}`);

describe.skipIf(missing !== undefined)("Redis killed and restarted under load", () => {
  let redis: PrivateRedis;
  let instance: Instance;
  const client = legacyClient(() => instance.url);
  let modernId = 0;

  function modern(name: string, capabilities: Message = {}): Promise<Response> {
    const method = "tools/call";
    const params = { name, arguments: {} };
    return fetch(`${instance.url}/mcp`, {
      method: "POST",
      signal: AbortSignal.timeout(BOUND_MS),
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": method,
        "mcp-name": mcpNameFor(method, params)!,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: ++modernId,
        method,
        params: {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": { name: "fault-test", version: "1" },
          },
        },
      }),
    });
  }
  const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

  /** One legacy tools/call: its HTTP status, the session re-opened (as a client does) after a 404. */
  async function legacyCall(): Promise<number | string> {
    try {
      const reply = await client.request("tools/call", { name: "whoami", arguments: {} });
      await reply.rest();
      if (reply.status === 404) await client.open();
      return reply.status;
    } catch (error) {
      return String((error as Error).cause ?? error);
    }
  }

  beforeAll(async () => {
    redis = await startPrivateRedis();
    const entry = await bundleFixture(join(here, "fixtures", "fault-server.ts"));
    instance = await startInstance(
      entry,
      { INSTANCE: "solo", REDIS_URL: redis.url },
      { captureStderr: true },
    );
    await client.open();
  });

  afterAll(async () => {
    if (instance) await killInstance(instance.child);
    await redis?.stop();
  });

  it("fails requests that need Redis at once with an error while it is down, and serves them again once it is back", async () => {
    // Load: a legacy client calling in a loop the whole time; every call is answered (bounded).
    const statuses: Array<number | string> = [];
    let stop = false;
    const load = (async () => {
      while (!stop) statuses.push(await legacyCall());
    })();
    await until(
      async () => statuses.length,
      (n) => n >= 5,
    );
    expect(statuses.every((s) => s === 200)).toBe(true);

    await redis.stop();
    const downFrom = statuses.length;
    await until(
      async () => statuses.slice(downFrom).filter((s) => s === 500).length,
      (n) => n >= 3,
    );
    // While Redis is down: a legacy request (its session record) and a task (its record) fail at once …
    const task = new Reply(await modern("job", TASKS));
    expect(await task.next()).toMatchObject({ error: { code: -32603 } });
    // … a plain modern tools/call needs no Redis and goes on.
    const plain = new Reply(await modern("whoami"));
    expect(await plain.next()).toMatchObject({ result: { content: [{ text: "solo" }] } });
    // The instance says why (the detail never crosses the wire).
    expect(instance.stderr()).toMatch(/closed|offline|ECONNREFUSED|connect/i);

    await redis.start();
    const upFrom = statuses.length;
    // Redis kept nothing (no persistence): the old session is gone (404), the client opens a new one.
    await until(
      async () => statuses.slice(upFrom).filter((s) => s === 200).length,
      (n) => n >= 3,
      20_000,
    );
    stop = true;
    await load;
    expect(statuses.slice(upFrom).filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    // Every answer was an answer: 200 while up, 500 while down, 404 for the session Redis forgot.
    expect(statuses.every((s) => s === 200 || s === 500 || s === 404)).toBe(true);
    const created = new Reply(await modern("job", TASKS));
    expect(await created.next()).toMatchObject({ result: { resultType: "task" } });
  });
});
