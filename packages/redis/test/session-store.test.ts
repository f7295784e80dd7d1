import type { SessionSignal } from "@mcpkit/transport-http";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createRedisSessionStore,
  openRedis,
  type RedisConnection,
  type RedisSessionStore,
} from "../src/index.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

/** Collects the signals an instance receives; `next()` waits (bounded) for one more. */
function inbox(store: RedisSessionStore) {
  const received: SessionSignal[] = [];
  let wake: (() => void) | undefined;
  store.listen((signal) => {
    received.push(signal);
    wake?.();
  });
  return {
    received,
    async next(ms = 5_000): Promise<SessionSignal> {
      if (received.length === 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("No signal came in time")), ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return received.shift()!;
    },
  };
}

describeRedis("createRedisSessionStore", () => {
  const prefix = testPrefix();
  let redis: RedisConnection;
  let a: RedisSessionStore;
  let b: RedisSessionStore;

  beforeAll(async () => {
    redis = await openRedis(REDIS_URL);
    a = await createRedisSessionStore({ client: redis, prefix, maxKept: 2 });
    b = await createRedisSessionStore({ url: REDIS_URL, prefix });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dropPrefix(redis, prefix);
    await redis.close();
  });

  it("gives each instance its own id, free of the routing separator", () => {
    expect(a.instanceId).not.toBe(b.instanceId);
    expect(a.instanceId).not.toContain("~");
  });

  it("creates, touches (restarting the TTL) and updates a record", async () => {
    await a.create("s1", "2025-11-25", 60_000, '["alice",null]');
    expect(await b.touch("s1", 120_000)).toEqual({
      protocolVersion: "2025-11-25",
      owner: '["alice",null]',
      revision: 0,
      fields: {},
    });
    expect(await redis.pTTL(`${prefix}session:{s1}`)).toBeGreaterThan(60_000);
    expect(await b.update("s1", { log: "error", "sub:file:///x": "1" })).toBe(1);
    expect(await a.update("s1", { "sub:file:///x": null })).toBe(2);
    expect(await a.touch("s1", 60_000)).toEqual({
      protocolVersion: "2025-11-25",
      owner: '["alice",null]',
      revision: 2,
      fields: { log: "error" },
    });
    expect(await a.touch("nope", 60_000)).toBeUndefined();
    expect(await a.update("nope", { log: "error" })).toBeUndefined();
    expect(await redis.exists(`${prefix}session:{nope}`)).toBe(0);
  });

  it("keeps messages for the GET stream until an instance claims it, then sends them there", async () => {
    const atB = inbox(b);
    await a.create("s2", "2025-11-25", 60_000);
    for (const n of [1, 2, 3]) await a.toStream("s2", { jsonrpc: "2.0", id: `x~${n}`, method: "roots/list" });
    // Bounded: the oldest went.
    expect((await b.claimStream("s2")).map((m) => (m as { id: string }).id)).toEqual(["x~2", "x~3"]);
    await a.toStream("s2", { jsonrpc: "2.0", id: "x~4", method: "roots/list" });
    expect(await atB.next()).toEqual({
      kind: "outbound",
      sessionId: "s2",
      message: { jsonrpc: "2.0", id: "x~4", method: "roots/list" },
    });
    // Changes made elsewhere reach the holder, with their revision; the holder's own do not.
    await a.update("s2", { init: "1" });
    expect(await atB.next()).toEqual({
      kind: "changed",
      sessionId: "s2",
      revision: 1,
      changes: { init: "1" },
    });
    await b.update("s2", { log: "debug" });
    await b.releaseStream("s2");
    await a.toStream("s2", { jsonrpc: "2.0", id: "x~5", method: "roots/list" });
    expect(atB.received).toEqual([]);
    expect(await a.claimStream("s2")).toHaveLength(1);
  });

  it("drops the claim of an instance that is gone and keeps the message instead", async () => {
    await a.create("s3", "2025-11-25", 60_000);
    await redis.hSet(`${prefix}session:{s3}`, "h", "gone-instance");
    await a.toStream("s3", { jsonrpc: "2.0", method: "notifications/message" });
    expect(await redis.hGet(`${prefix}session:{s3}`, "h")).toBeNull();
    expect(await b.claimStream("s3")).toEqual([{ jsonrpc: "2.0", method: "notifications/message" }]);
  });

  it("routes signals to one instance or to all, and ends a session everywhere", async () => {
    const atA = inbox(a);
    const atB = inbox(b);
    const answer = { jsonrpc: "2.0" as const, id: `${b.instanceId}~1`, result: {} };
    expect(await a.sendTo(b.instanceId, { kind: "inbound", sessionId: "s4", message: answer })).toBe(true);
    expect(await atB.next()).toEqual({ kind: "inbound", sessionId: "s4", message: answer });
    expect(await a.sendTo("gone-instance", { kind: "inbound", sessionId: "s4", message: answer })).toBe(
      false,
    );
    await a.create("s4", "2025-11-25", 60_000);
    await b.end("s4");
    expect(await atA.next()).toEqual({ kind: "ended", sessionId: "s4" });
    expect(await atB.next()).toEqual({ kind: "ended", sessionId: "s4" });
    expect(await a.touch("s4", 60_000)).toBeUndefined();
  });

  it("lets a record lapse after its TTL", async () => {
    await a.create("s5", "2025-11-25", 50);
    const deadline = Date.now() + 5_000;
    while ((await redis.exists(`${prefix}session:{s5}`)) === 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await b.touch("s5", 60_000)).toBeUndefined();
  });
});
