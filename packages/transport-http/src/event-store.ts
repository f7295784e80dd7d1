import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import { randomId } from "./internal/http-util.js";

/**
 * Storage for the SSE events of legacy Streamable HTTP sessions, so a client whose stream broke can
 * come back with `Last-Event-ID` and miss nothing. The handler stores every event before writing it,
 * so an implementation backed by Redis (or any shared store) makes resumption work across instances.
 *
 * Event ids must be unique across all streams the store holds and carry nothing an outsider can extend:
 * random per event, or authenticated (a MAC), never a counter or a session id with a sequence number
 * (the handler also checks that the stream belongs to the session asking, and the session to the identity
 * asking). Methods may be sync or async.
 * @see SPEC.md §4.8 Resumability
 */
export interface EventStore {
  /**
   * Records one event of a stream and returns its id. `message` is `null` for a priming event (an id
   * with empty data, sent first so the client has something to resume from); replay skips those.
   */
  storeEvent(streamId: string, message: JsonRpcMessage | null): string | Promise<string>;
  /** The stream an event id belongs to, or `undefined` when the id is unknown or was evicted. */
  streamIdOf(eventId: string): string | undefined | Promise<string | undefined>;
  /**
   * Calls `send` for every message event stored on the same stream after `lastEventId`, in order,
   * awaiting each call. Does nothing when the id is unknown.
   */
  replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void | Promise<void>,
  ): void | Promise<void>;
  /** Forgets the events of streams that can no longer be resumed (their session ended). Optional. */
  deleteStreams?(streamIds: readonly string[]): void | Promise<void>;
}

/** Options of {@link createInMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Most events kept over all streams; the oldest go first. Default 1000. */
  maxEvents?: number;
}

interface StoredEvent {
  streamId: string;
  message: JsonRpcMessage | null;
}

/**
 * The default {@link EventStore}: events kept in memory, by reference (no copy), at most
 * `maxEvents` of them (oldest evicted first). Event ids are 128-bit random hex, one per event: knowing
 * some ids (or the session id) tells nothing of the others.
 * Suits one process; use a shared store for several instances behind a load balancer.
 */
export function createInMemoryEventStore(options: InMemoryEventStoreOptions = {}): EventStore {
  const maxEvents = options.maxEvents ?? 1000;
  if (!(Number.isInteger(maxEvents) && maxEvents >= 1)) {
    throw new RangeError(`maxEvents must be a positive integer, got ${String(maxEvents)}`);
  }
  // Insertion order of a Map is the eviction order.
  const events = new Map<string, StoredEvent>();
  const streams = new Map<string, string[]>();

  function evictOldest(): void {
    const oldest = events.keys().next();
    if (oldest.done) return;
    const id = oldest.value;
    const event = events.get(id)!;
    events.delete(id);
    const list = streams.get(event.streamId);
    if (list) {
      // The oldest event of the store is the oldest of its stream.
      if (list[0] === id) list.shift();
      if (list.length === 0) streams.delete(event.streamId);
    }
  }

  return {
    storeEvent(streamId, message) {
      const id = randomId();
      events.set(id, { streamId, message });
      let list = streams.get(streamId);
      if (!list) streams.set(streamId, (list = []));
      list.push(id);
      while (events.size > maxEvents) evictOldest();
      return id;
    },
    streamIdOf(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, send) {
      const event = events.get(lastEventId);
      if (!event) return;
      const list = streams.get(event.streamId);
      if (!list) return;
      // Snapshot: events stored while replaying are the caller's to deliver live.
      const after = list.slice(list.indexOf(lastEventId) + 1);
      for (const id of after) {
        const stored = events.get(id);
        if (stored?.message) await send(id, stored.message);
      }
    },
    deleteStreams(streamIds) {
      for (const streamId of streamIds) {
        for (const id of streams.get(streamId) ?? []) events.delete(id);
        streams.delete(streamId);
      }
    },
  };
}
