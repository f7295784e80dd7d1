import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The shape of transport-http's `EventStore`, matched structurally so the test kit does not depend on a
 * transport package.
 */
export interface EventStoreLike {
  storeEvent(streamId: string, message: JsonRpcMessage | null): string | Promise<string>;
  streamIdOf(eventId: string): string | undefined | Promise<string | undefined>;
  replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void | Promise<void>,
  ): void | Promise<void>;
  deleteStreams?(streamIds: readonly string[]): void | Promise<void>;
}

/** One store under test, fresh and empty. */
export interface EventStoreUnderTest {
  store: EventStoreLike;
  /**
   * A second store over the same shared state, as another server instance would hold it; only for
   * stores meant to be shared (the in-memory one is not). Turns on the cross-instance tests.
   */
  peer?: EventStoreLike;
  /** Frees what the store holds (a connection, its keys). */
  dispose?: () => Promise<void>;
}

/** Bounds the suite asks of the store it makes. */
export interface EventStoreBounds {
  /** Most events kept of one stream; the oldest go first. */
  maxEventsPerStream: number;
}

const note = (i: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "n", params: { i } });

/**
 * What every `EventStore` keeps, as a vitest suite: resumption replays exactly the events a client
 * missed, in order, skipping priming events; ids are unique and resolve to their stream; a bound evicts
 * the oldest; deleted streams resume nothing. With a `peer`, the same holds across two instances.
 */
export function eventStoreConformance(
  name: string,
  make: (bounds: EventStoreBounds) => Promise<EventStoreUnderTest>,
): void {
  describe(`event store conformance: ${name}`, () => {
    let disposals: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const dispose of disposals) await dispose();
      disposals = [];
    });
    async function open(maxEventsPerStream = 100): Promise<EventStoreUnderTest> {
      const made = await make({ maxEventsPerStream });
      if (made.dispose) disposals.push(made.dispose);
      return made;
    }
    async function replay(store: EventStoreLike, after: string): Promise<number[]> {
      const out: number[] = [];
      await store.replayEventsAfter(after, (_id, m) => {
        out.push((m as unknown as { params: { i: number } }).params.i);
      });
      return out;
    }

    it("replays only the same stream's message events after the given id, in order, skipping priming", async () => {
      const { store } = await open();
      const priming = await store.storeEvent("a", null);
      const a1 = await store.storeEvent("a", note(1));
      await store.storeEvent("b", note(100));
      await store.storeEvent("a", note(2));
      const a3 = await store.storeEvent("a", note(3));
      expect(await replay(store, priming)).toEqual([1, 2, 3]);
      expect(await replay(store, a1)).toEqual([2, 3]);
      expect(await replay(store, a3)).toEqual([]);
      expect(await store.streamIdOf(a1)).toBe("a");
      expect(await store.streamIdOf(priming)).toBe("a");
      expect(await store.streamIdOf("unknown")).toBeUndefined();
      expect(await replay(store, "unknown")).toEqual([]);
    });

    it("hands each replayed event with its own id, which resumes after it", async () => {
      const { store } = await open();
      const first = await store.storeEvent("s", note(1));
      const stored = [await store.storeEvent("s", note(2)), await store.storeEvent("s", note(3))];
      const ids: string[] = [];
      await store.replayEventsAfter(first, (id) => {
        ids.push(id);
      });
      expect(ids).toEqual(stored);
      expect(await replay(store, ids[0]!)).toEqual([3]);
    });

    it("gives ids unique over every stream", async () => {
      const { store } = await open();
      const ids = new Set<string>();
      for (let i = 0; i < 30; i++) ids.add(await store.storeEvent(`s${i % 3}`, note(i)));
      expect(ids.size).toBe(30);
    });

    it("keeps at most the bound of a stream, evicting the oldest", async () => {
      const { store } = await open(3);
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(await store.storeEvent("s", note(i)));
      const streams = await Promise.all(ids.map((id) => store.streamIdOf(id)));
      expect(streams).toEqual([undefined, undefined, undefined, "s", "s", "s"]);
      // An evicted id resumes nothing: the client would otherwise miss events without knowing.
      expect(await replay(store, ids[1]!)).toEqual([]);
      expect(await replay(store, ids[3]!)).toEqual([4, 5]);
    });

    it("replays a snapshot: events stored while replaying are not replayed", async () => {
      const { store } = await open();
      const first = await store.storeEvent("s", note(0));
      await store.storeEvent("s", note(1));
      const seen: number[] = [];
      await store.replayEventsAfter(first, async (_id, m) => {
        seen.push((m as unknown as { params: { i: number } }).params.i);
        await store.storeEvent("s", note(99));
      });
      expect(seen).toEqual([1]);
    });

    it("deleteStreams forgets a stream's events", async () => {
      const { store } = await open();
      const id = await store.storeEvent("gone", note(1));
      await store.storeEvent("gone", note(2));
      const kept = await store.storeEvent("kept", note(3));
      await store.deleteStreams?.(["gone"]);
      if (store.deleteStreams) {
        expect(await store.streamIdOf(id)).toBeUndefined();
        expect(await replay(store, id)).toEqual([]);
      }
      expect(await store.streamIdOf(kept)).toBe("kept");
    });

    it("across instances: events stored by one replay through the other, in order, none twice", async () => {
      const { store, peer } = await open();
      if (!peer) return;
      const priming = await store.storeEvent("x", null);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await (i % 2 === 0 ? store : peer).storeEvent("x", note(i)));
      expect(new Set(ids).size).toBe(10);
      expect(await peer.streamIdOf(priming)).toBe("x");
      expect(await replay(peer, priming)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(await replay(store, ids[6]!)).toEqual([7, 8, 9]);
      await peer.deleteStreams?.(["x"]);
      if (peer.deleteStreams) expect(await store.streamIdOf(ids[0]!)).toBeUndefined();
    });
  });
}
