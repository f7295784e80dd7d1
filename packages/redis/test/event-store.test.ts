import { eventStoreConformance } from "@mcpkit/test-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRedisEventStore, openRedis, type RedisConnection } from "../src/index.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

describeRedis("createRedisEventStore", () => {
  let client: RedisConnection;
  let other: RedisConnection;
  const prefix = testPrefix();
  let n = 0;
  beforeAll(async () => {
    client = await openRedis(REDIS_URL);
    // A second connection stands for a second instance.
    other = await openRedis(REDIS_URL);
  });
  afterAll(async () => {
    await dropPrefix(client, prefix);
    await Promise.all([client.close(), other.close()]);
  });

  eventStoreConformance("redis", async ({ maxEventsPerStream }) => {
    // A prefix per test: every test starts empty.
    const options = { prefix: `${prefix}${n++}:`, maxEventsPerStream };
    return {
      store: createRedisEventStore({ client, ...options }),
      peer: createRedisEventStore({ client: other, ...options }),
    };
  });

  it("bounds each stream's life: the key expires ttlMs after its last event", async () => {
    const store = createRedisEventStore({ client, prefix: `${prefix}ttl:`, ttlMs: 60_000 });
    const id = await store.storeEvent("s", null);
    const ttl = await client.pTTL(`${prefix}ttl:events:s`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await client.del(`${prefix}ttl:events:s`);
    expect(await store.streamIdOf(id)).toBeUndefined();
  });

  it("resolves ids of streams whose id holds an underscore; refuses ids it did not make", async () => {
    const store = createRedisEventStore({ client, prefix: `${prefix}ids:` });
    const id = await store.storeEvent("a_b-0", null);
    expect(await store.streamIdOf(id)).toBe("a_b-0");
    for (const bogus of ["", "_1-0", "a_b-0", "a_b-0_x", `${id}x`]) {
      expect(await store.streamIdOf(bogus)).toBeUndefined();
    }
    expect(() => createRedisEventStore({ client, maxEventsPerStream: 0 })).toThrow(RangeError);
  });
});
