// Test support: a real Redis (REDIS_URL, default 127.0.0.1:6379). Where it cannot be reached the suites
// print why and skip on a person's machine; under CI=true an unreachable Redis fails the run instead.
import { randomUUID } from "node:crypto";
import { describe } from "vitest";
import { DEFAULT_REDIS_URL, openRedis, type RedisConnection } from "../src/index.js";

export const REDIS_URL = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;

async function probe(): Promise<string | undefined> {
  try {
    const client = await openRedis(REDIS_URL);
    await client.ping();
    await client.close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const unreachable = await probe();
if (unreachable !== undefined) {
  if (process.env.CI === "true") throw new Error(`Redis is required under CI=true: ${unreachable}`);
  console.warn(`Skipping the Redis suites: ${unreachable} (start redis-server or set REDIS_URL)`);
}

/** `describe` that runs when Redis is reachable (and must be under CI), skipping with a printed reason otherwise. */
export const describeRedis: typeof describe.skipIf extends (c: boolean) => infer D ? D : never =
  describe.skipIf(unreachable !== undefined);

/** A key prefix of its own per test file run, so suites never see each other's keys. */
export function testPrefix(): string {
  return `mcpkit-test:${randomUUID().slice(0, 8)}:`;
}

/** Deletes every key under `prefix` (SCAN, never KEYS). */
export async function dropPrefix(client: RedisConnection, prefix: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) await client.del(keys);
  }
}
