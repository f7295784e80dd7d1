import { describe, expect, it, vi } from "vitest";
import {
  type CachedResponse,
  cacheHints,
  createMemoryResponseCache,
  ResponseCache,
} from "./response-cache.js";

describe("createMemoryResponseCache", () => {
  it("holds at most maxEntries, the least recently used out first", () => {
    const store = createMemoryResponseCache({ maxEntries: 2 });
    // The memory store answers synchronously.
    const value = (key: string) => (store.get(key) as CachedResponse | undefined)?.value;
    const entry = (value: string) => ({ value, expiresAt: null, scope: "public" as const });
    store.set("a", entry("a"));
    store.set("b", entry("b"));
    store.get("a");
    store.set("c", entry("c"));
    expect(value("b")).toBeUndefined();
    expect(value("a")).toBe("a");
    expect(value("c")).toBe("c");
  });

  it("refuses a bound that is not a positive integer", () => {
    expect(() => createMemoryResponseCache({ maxEntries: 0 })).toThrow(RangeError);
  });
});

describe("ResponseCache", () => {
  it("reads the hints the safe way: no ttl is 0, anything but public is private", () => {
    expect(cacheHints({})).toEqual({ ttlMs: 0, scope: "private" });
    expect(cacheHints({ ttlMs: -5, cacheScope: "public" })).toEqual({ ttlMs: 0, scope: "public" });
    expect(cacheHints({ ttlMs: 1500.7, cacheScope: "shared" })).toEqual({ ttlMs: 1500, scope: "private" });
  });

  it("expires entries, and drops what an invalidation overtook", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const cache = new ResponseCache(undefined);
      const key = cache.key("tools/list", "");
      await cache.put(key, cache.ticket(), ["x"], 1000, "public");
      expect(await cache.get(key)).toEqual(["x"]);
      vi.setSystemTime(Date.now() + 1000);
      expect(await cache.get(key)).toBeUndefined();

      const ticket = cache.ticket();
      await cache.invalidate("tools/list");
      await cache.put(key, ticket, ["old"], 1000, "public");
      expect(await cache.get(key)).toBeUndefined();
      // An invalidation of another method does not spoil this fetch.
      const next = cache.ticket();
      await cache.invalidate("prompts/list");
      await cache.put(key, next, ["new"], 1000, "public");
      expect(await cache.get(key)).toEqual(["new"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("stores nothing when disabled", async () => {
    const cache = new ResponseCache(false);
    const key = cache.key("resources/read", '"a"');
    await cache.put(key, cache.ticket(), 1, 1000, "public");
    expect(cache.enabled).toBe(false);
    expect(await cache.get(key)).toBeUndefined();
  });
});
