import { expect, it } from "vitest";
import { openRedis } from "../src/index.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

describeRedis("openRedis", () => {
  it("connects to a real Redis and round-trips a key", async () => {
    const client = await openRedis(REDIS_URL);
    const prefix = testPrefix();
    try {
      await client.set(`${prefix}k`, "v");
      expect(await client.get(`${prefix}k`)).toBe("v");
    } finally {
      await dropPrefix(client, prefix);
      await client.close();
    }
  });
});

it("names the URL when Redis cannot be reached", async () => {
  await expect(openRedis("redis://127.0.0.1:9")).rejects.toThrow(
    /^Cannot reach Redis at redis:\/\/127\.0\.0\.1:9: /,
  );
});
