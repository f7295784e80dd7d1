// The state half of a Redis session record (RedisSessionState), alone on a real Redis: the server's
// fields in the record hash beside the routing fields, written by one script that raises the revision
// and tells the GET stream's holder (another instance) what changed.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openRedis, type RedisConnection } from "../src/index.js";
import { RedisSessionState } from "../src/session-state.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

describeRedis("RedisSessionState", () => {
  const prefix = testPrefix();
  const channels = `${prefix}sessions:to:`;
  const key = `${prefix}session:{s1}`;
  let redis: RedisConnection;
  let listener: RedisConnection;

  beforeAll(async () => {
    redis = await openRedis(REDIS_URL);
    listener = redis.duplicate();
    await listener.connect();
  });

  afterAll(async () => {
    await listener?.close();
    await dropPrefix(redis, prefix);
    await redis.close();
  });

  it("reads only the server's fields of a record hash, routing fields left out", () => {
    const state = new RedisSessionState(redis, "here", channels);
    expect(
      state.fieldsOf({ v: "2025-11-25", r: "3", o: "anonymous", h: "x", "f:log": "error", "f:sub:a": "1" }),
    ).toEqual({ log: "error", "sub:a": "1" });
  });

  it("writes fields of a live record, raising its revision, and writes nothing for a record that is gone", async () => {
    const state = new RedisSessionState(redis, "here", channels);
    await redis.hSet(key, { v: "2025-11-25", r: "0", o: "anonymous" });
    expect(await state.write(key, "s1", { log: "error", init: "1" })).toBe(1);
    expect(await state.write(key, "s1", { init: null })).toBe(2);
    expect(await redis.hGetAll(key)).toEqual({ v: "2025-11-25", r: "2", o: "anonymous", "f:log": "error" });
    expect(await state.write(`${prefix}session:{gone}`, "gone", { log: "error" })).toBeUndefined();
    expect(await redis.exists(`${prefix}session:{gone}`)).toBe(0);
  });

  it("tells the GET stream's holder, when it is another instance, the changes and their revision", async () => {
    const received: string[] = [];
    let wake: (() => void) | undefined;
    /** The next message on the holder's channel, waited for at most 5 s. */
    const next = async (): Promise<string> => {
      if (received.length === 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("No signal came in time")), 5_000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return received.shift()!;
    };
    await listener.subscribe(`${channels}there`, (text) => {
      received.push(text);
      wake?.();
    });
    const record = `${prefix}session:{s2}`;
    await redis.hSet(record, { v: "2025-11-25", r: "0", o: "anonymous", h: "there" });
    const here = new RedisSessionState(redis, "here", channels);
    expect(await here.write(record, "s2", { log: "debug" })).toBe(1);
    expect(JSON.parse(await next())).toEqual({ k: "changed", s: "s2", r: 1, c: { log: "debug" } });
    // The holder's own write signals nobody: the next message on its channel is the probe sent after it.
    const there = new RedisSessionState(redis, "there", channels);
    expect(await there.write(record, "s2", { log: "info" })).toBe(2);
    expect(await redis.publish(`${channels}there`, "probe")).toBe(1);
    expect(await next()).toBe("probe");
  });
});
