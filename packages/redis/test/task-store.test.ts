import type { StoredTask, TaskSignal } from "@mcpkit/server";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import {
  createRedisTaskStore,
  LEASE_LAPSED_MESSAGE,
  openRedis,
  type RedisConnection,
  type RedisTaskStore,
} from "../src/index.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

let n = 0;
const task = (patch: Partial<StoredTask> = {}): StoredTask => {
  const now = new Date().toISOString();
  return Object.assign(
    { taskId: `t${n++}`, status: "working", createdAt: now, lastUpdatedAt: now, ttlMs: 60_000 } as StoredTask,
    patch,
  );
};

describeRedis("createRedisTaskStore", () => {
  let client: RedisConnection;
  let other: RedisConnection;
  const prefix = testPrefix();
  const stores: RedisTaskStore[] = [];
  // Two instances: separate connections, separate stores, one prefix.
  const pair = (options: { leaseMs?: number; ttlMs?: number } = {}) => {
    const a = createRedisTaskStore({ client, prefix, ...options });
    const b = createRedisTaskStore({ client: other, prefix, ...options });
    stores.push(a, b);
    return [a, b] as const;
  };
  beforeAll(async () => {
    client = await openRedis(REDIS_URL);
    other = await openRedis(REDIS_URL);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await dropPrefix(client, prefix);
    await Promise.all([client.close(), other.close()]);
  });

  it("a record created through one instance is read and updated through another", async () => {
    const [a, b] = pair();
    const t = task({ owner: "sub:alice" });
    await a.create(t);
    expect(await b.get(t.taskId)).toEqual(t);
    await b.update({
      ...t,
      status: "input_required",
      inputRequests: { k: { method: "roots/list", params: {} } },
    });
    expect(await a.get(t.taskId)).toMatchObject({ status: "input_required", inputRequests: { k: {} } });
    await b.update({ ...t, status: "completed", result: { content: [], structuredContent: { list: [] } } });
    expect(await a.get(t.taskId)).toMatchObject({ status: "completed", result: { content: [] } });
    expect(await a.get("unknown")).toBeUndefined();
    // An update of an unknown (or expired) record creates nothing.
    await a.update(task({ taskId: "never-created" }));
    expect(await b.get("never-created")).toBeUndefined();
  });

  it("never replaces a final record: the first final word stands", async () => {
    const [a, b] = pair();
    const t = task();
    await a.create(t);
    await b.update({ ...t, status: "cancelled" });
    await a.update({ ...t, status: "working" });
    await a.update({ ...t, status: "completed", result: { content: [] } });
    expect(await b.get(t.taskId)).toMatchObject({ status: "cancelled" });
    expect((await b.get(t.taskId))?.result).toBeUndefined();
  });

  it("expires records: the record's own ttlMs, else the store's", async () => {
    const [a] = pair({ ttlMs: 120_000 });
    const own = task({ ttlMs: 30_000 });
    const unlimited = task({ ttlMs: null });
    await a.create(own);
    await a.create(unlimited);
    const ownTtl = await client.pTTL(`${prefix}task:${own.taskId}`);
    const storeTtl = await client.pTTL(`${prefix}task:${unlimited.taskId}`);
    expect(ownTtl).toBeGreaterThan(0);
    expect(ownTtl).toBeLessThanOrEqual(30_000);
    expect(storeTtl).toBeGreaterThan(30_000);
    expect(storeTtl).toBeLessThanOrEqual(120_000);
    // Lapse by Redis's own expiry, not DEL.
    await client.pExpire(`${prefix}task:${own.taskId}`, 30);
    await expect.poll(() => a.get(own.taskId), { timeout: 5_000, interval: 20 }).toBeUndefined();
  });

  it("a lapsed lease makes a running task failed on its first read, for good", async () => {
    // Renewals every 20 s: none comes while this test lets the lease time out.
    const [a, b] = pair({ leaseMs: 60_000 });
    const t = task({ status: "input_required", inputRequests: { k: { method: "roots/list", params: {} } } });
    const lease = `${prefix}task-lease:${t.taskId}`;
    await a.create(t);
    expect(await client.get(lease)).toBe(a.instanceId);
    // A lease always expires (pTTL -1 is a lease with no expiry, -2 no lease at all), within leaseMs.
    const ttl = await client.pTTL(lease);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await b.get(t.taskId)).toMatchObject({ status: "input_required" });
    // The instance died: its lease key times out in Redis itself (no DEL).
    await client.pExpire(lease, 30);
    await expect.poll(() => client.exists(lease), { timeout: 5_000, interval: 20 }).toBe(0);
    const failed = await b.get(t.taskId);
    expect(failed).toMatchObject({
      status: "failed",
      statusMessage: LEASE_LAPSED_MESSAGE,
      error: { code: -32603, message: LEASE_LAPSED_MESSAGE },
    });
    expect(failed?.inputRequests).toBeUndefined();
    // A late word of the instance that lost its lease changes nothing.
    await a.update({ ...t, status: "completed", result: { content: [] } });
    expect(await a.get(t.taskId)).toMatchObject({ status: "failed" });
  });

  it("renews the lease on a timer while the task runs; drops it on a final update and on close", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const [a] = pair({ leaseMs: 60_000 });
    const t = task();
    const lease = `${prefix}task-lease:${t.taskId}`;
    await a.create(t);
    await client.pExpire(lease, 1_000_000);
    vi.advanceTimersByTime(20_000);
    await expect.poll(() => client.pTTL(lease)).toBeLessThanOrEqual(60_000);
    await a.update({ ...t, status: "completed", result: { content: [] } });
    expect(await client.exists(lease)).toBe(0);
    const u = task();
    await a.create(u);
    await a.close();
    expect(await client.exists(`${prefix}task-lease:${u.taskId}`)).toBe(0);
    expect(await a.get(u.taskId)).toMatchObject({ status: "failed", statusMessage: LEASE_LAPSED_MESSAGE });
  });

  it("carries signals from one instance to every subscribed one", async () => {
    const [a, b] = pair();
    const heard: TaskSignal[] = [];
    await b.signals.subscribe((signal) => heard.push(signal));
    await a.signals.publish({ type: "cancel", taskId: "x" });
    await a.signals.publish({ type: "input", taskId: "y", responses: { k: { action: "accept" } } });
    await expect.poll(() => heard.length).toBe(2);
    expect(heard).toEqual([
      { type: "cancel", taskId: "x" },
      { type: "input", taskId: "y", responses: { k: { action: "accept" } } },
    ]);
    expect(() => createRedisTaskStore({ client, leaseMs: 0 })).toThrow(RangeError);
  });
});
