import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import type { EventStore } from "@mcpkit/transport-http";
import type { RedisConnection } from "./connection.js";

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions {
  /** An open connection (see `openRedis`); the store never closes it. */
  client: RedisConnection;
  /** Prefix of every key; default `"mcpkit:"`. */
  prefix?: string;
  /** Most events kept of one stream; the oldest go first. Default 1000. */
  maxEventsPerStream?: number;
  /** A stream with no new event for this long is dropped whole. Default 1 hour. */
  ttlMs?: number;
}

// The id Redis gives a stream entry: `<ms>-<seq>`. It never contains "_", so the last "_" of an event id
// separates the stream id (which may contain one) from it.
const ENTRY_ID = /^\d+-\d+$/;
// Field names of an entry: the JSON of the message; absent on a priming event.
const DATA = "d";
const PRIMING = "p";

/**
 * An `EventStore` (transport-http's resumption seam) on Redis, so a legacy client whose SSE stream broke
 * can reconnect with `Last-Event-ID` to any instance and get exactly the events it missed, in order.
 *
 * Each SSE stream is one Redis stream (`<prefix>events:<streamId>`): `XADD` with an exact `MAXLEN`
 * keeps it bounded, and `PEXPIRE` (renewed by every event, in the same `MULTI`) drops it once idle.
 * An event id is `<streamId>_<entry id>`: Redis assigns entry ids, unique and increasing within a stream
 * whichever instance adds, and the stream id (it starts with the session's random id) makes the event
 * id unique over all streams and unguessable; any instance resolves an id to its stream without a
 * lookup table. Replay is one `XRANGE` from the given id (a snapshot: events stored meanwhile are the
 * live stream's to deliver).
 * @throws RangeError for a bound that is not a positive integer.
 */
export function createRedisEventStore(options: RedisEventStoreOptions): EventStore {
  const { client } = options;
  const prefix = options.prefix ?? "mcpkit:";
  const maxEvents = options.maxEventsPerStream ?? 1000;
  const ttlMs = options.ttlMs ?? 3_600_000;
  if (!(Number.isInteger(maxEvents) && maxEvents >= 1)) {
    throw new RangeError(`maxEventsPerStream must be a positive integer, got ${String(maxEvents)}`);
  }
  if (!(Number.isInteger(ttlMs) && ttlMs >= 1)) {
    throw new RangeError(`ttlMs must be a positive integer, got ${String(ttlMs)}`);
  }
  const keyOf = (streamId: string) => `${prefix}events:${streamId}`;

  function parse(eventId: string): { streamId: string; entryId: string } | undefined {
    const cut = eventId.lastIndexOf("_");
    if (cut <= 0) return undefined;
    const entryId = eventId.slice(cut + 1);
    if (!ENTRY_ID.test(entryId)) return undefined;
    return { streamId: eventId.slice(0, cut), entryId };
  }

  /** The entries from `entryId` (inclusive) on, or `undefined` when `entryId` itself is gone. */
  async function from(key: string, entryId: string, count?: number) {
    const entries = await client.xRange(
      key,
      entryId,
      "+",
      count === undefined ? undefined : { COUNT: count },
    );
    if (entries === null || entries.length === 0 || entries[0]!.id !== entryId) return undefined;
    return entries;
  }

  return {
    async storeEvent(streamId, message) {
      const key = keyOf(streamId);
      const fields = message === null ? { [PRIMING]: "1" } : { [DATA]: JSON.stringify(message) };
      const [entryId] = await client
        .multi()
        .xAdd(key, "*", fields, { TRIM: { strategy: "MAXLEN", strategyModifier: "=", threshold: maxEvents } })
        .pExpire(key, ttlMs)
        .exec();
      return `${streamId}_${String(entryId)}`;
    },
    async streamIdOf(eventId) {
      const parsed = parse(eventId);
      if (parsed === undefined) return undefined;
      // Known means still stored: an evicted id would resume with a silent gap.
      const entries = await from(keyOf(parsed.streamId), parsed.entryId, 1);
      return entries === undefined ? undefined : parsed.streamId;
    },
    async replayEventsAfter(lastEventId, send) {
      const parsed = parse(lastEventId);
      if (parsed === undefined) return;
      const entries = await from(keyOf(parsed.streamId), parsed.entryId);
      if (entries === undefined) return;
      for (let i = 1; i < entries.length; i++) {
        const entry = entries[i]!;
        const data = entry.message[DATA];
        if (data === undefined) continue;
        await send(`${parsed.streamId}_${entry.id}`, JSON.parse(String(data)) as JsonRpcMessage);
      }
    },
    async deleteStreams(streamIds) {
      if (streamIds.length > 0) await client.del(streamIds.map(keyOf));
    },
  };
}
