import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import { eventStoreConformance } from "@mcpkit/test-kit";
import { describe, expect, it } from "vitest";
import { createInMemoryEventStore } from "./event-store.js";

const note = (i: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "n", params: { i } });

async function replay(store: ReturnType<typeof createInMemoryEventStore>, after: string): Promise<unknown[]> {
  const out: unknown[] = [];
  await store.replayEventsAfter(after, (_id, m) => {
    out.push((m as unknown as { params: { i: number } }).params.i);
  });
  return out;
}

describe("createInMemoryEventStore", () => {
  it("replays only the same stream's message events after the given id, in order, skipping priming", async () => {
    const store = createInMemoryEventStore();
    const priming = store.storeEvent("a", null) as string;
    const a1 = store.storeEvent("a", note(1)) as string;
    store.storeEvent("b", note(100));
    store.storeEvent("a", note(2));
    store.storeEvent("a", note(3));
    expect(await replay(store, priming)).toEqual([1, 2, 3]);
    expect(await replay(store, a1)).toEqual([2, 3]);
    expect(store.streamIdOf(a1)).toBe("a");
    expect(await replay(store, "unknown")).toEqual([]);
  });

  it("keeps at most maxEvents, evicting the oldest", async () => {
    const store = createInMemoryEventStore({ maxEvents: 3 });
    const ids = Array.from({ length: 6 }, (_, i) => store.storeEvent("s", note(i)) as string);
    expect(ids.map((id) => store.streamIdOf(id))).toEqual([undefined, undefined, undefined, "s", "s", "s"]);
    expect(await replay(store, ids[1]!)).toEqual([]);
    expect(await replay(store, ids[3]!)).toEqual([4, 5]);
  });

  it("deleteStreams forgets a stream's events", async () => {
    const store = createInMemoryEventStore();
    const id = store.storeEvent("gone", note(1)) as string;
    store.storeEvent("gone", note(2));
    store.deleteStreams!(["gone"]);
    expect(store.streamIdOf(id)).toBeUndefined();
    expect(() => createInMemoryEventStore({ maxEvents: 0 })).toThrow(RangeError);
  });
});

eventStoreConformance("in-memory", async ({ maxEventsPerStream }) => ({
  // One stream per test is filled to the bound, so the store-wide bound stands in for the per-stream one.
  store: createInMemoryEventStore({ maxEvents: maxEventsPerStream }),
}));
