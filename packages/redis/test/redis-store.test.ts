// redisStore: one connection, the four stores and the key ring, closed in order.
import { createServer } from "@mcpkit/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openRedis, type RedisConnection, redisStore } from "../src/index.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

describeRedis("redisStore", () => {
  const prefix = testPrefix();
  let redis: RedisConnection;

  beforeAll(async () => {
    redis = await openRedis(REDIS_URL);
  });

  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.close();
  });

  it("builds every store on one connection it opened, and closes that connection last", async () => {
    const store = await redisStore({ url: REDIS_URL, prefix, stateKeys: " new , old ,," });
    expect(store.requestStateKey).toEqual(["new", "old"]);
    expect(store.bus.channel).toBe(`${prefix}notifications`);
    expect(store.client.isOpen).toBe(true);
    // The stores work on it: a session record, an event, a task.
    await store.sessionStore.create("s1", "2025-11-25", 10_000);
    expect((await store.sessionStore.touch("s1", 10_000))?.protocolVersion).toBe("2025-11-25");
    const eventId = await store.eventStore.storeEvent("s1_get", { jsonrpc: "2.0", method: "x" });
    expect(await store.eventStore.streamIdOf(eventId)).toBe("s1_get");
    // The object fits a server as it is (tasks, bus, requestStateKey).
    const server = createServer({ name: "s", version: "1" });
    server.useStores(store);
    await server.close();
    await store.close();
    await store.close();
    expect(store.client.isOpen).toBe(false);
  });

  it("never closes a connection it was given, and agrees on one random key through Redis without stateKeys", async () => {
    const a = await redisStore({ client: redis, prefix });
    const b = await redisStore({ client: redis, prefix });
    expect(a.requestStateKey).toHaveLength(1);
    expect(a.requestStateKey).toEqual(b.requestStateKey);
    expect(String(a.requestStateKey[0]).length).toBeGreaterThanOrEqual(40);
    expect(await redis.get(`${prefix}state-key`)).toBe(a.requestStateKey[0]);
    await a.close();
    await b.close();
    expect(redis.isOpen).toBe(true);
    expect(await redis.ping()).toBe("PONG");
  });

  it("refuses an empty ring, and names the URL when Redis is not there", async () => {
    await expect(redisStore({ client: redis, prefix, stateKeys: " , " })).rejects.toThrow(RangeError);
    await expect(redisStore({ url: "redis://127.0.0.1:1", prefix })).rejects.toThrow(
      /Cannot reach Redis at redis:\/\/127\.0\.0\.1:1/,
    );
  });
});
