import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
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
  /**
   * The key that authenticates event ids (at least 16 bytes), the same on every instance. Default: a
   * random key kept in Redis (`<prefix>events:key`, made by the first instance that needs it).
   */
  idKey?: string | Uint8Array;
}

// The id Redis gives a stream entry: `<ms>-<seq>`. It never contains "_", nor does the hex tag after it,
// so the last two "_" of an event id separate the stream id (which may contain one) from them.
const ENTRY_ID = /^\d+-\d+$/;
const TAG = /^[0-9a-f]{32}$/;
// KEYS: the id key. ARGV: a fresh random key, kept only when there is none yet.
const ID_KEY = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])`;
// Field names of an entry: the JSON of the message; absent on a priming event.
const DATA = "d";
const PRIMING = "p";

/**
 * An `EventStore` (transport-http's resumption seam) on Redis, so a legacy client whose SSE stream broke
 * can reconnect with `Last-Event-ID` to any instance and get exactly the events it missed, in order.
 *
 * Each SSE stream is one Redis stream (`<prefix>events:<streamId>`): `XADD` with an exact `MAXLEN`
 * keeps it bounded, and `PEXPIRE` (renewed by every event, in the same `MULTI`) drops it once idle.
 * An event id is `<streamId>_<entry id>_<tag>`: Redis assigns entry ids, unique and increasing within a
 * stream whichever instance adds, the stream id makes the event id unique over all streams, and the tag
 * (HMAC-SHA256 of the rest under `idKey`, 128 bits) makes it unforgeable: knowing a session id or some
 * event ids, nobody can name another event (an id whose tag does not verify is unknown). Any instance
 * resolves an id to its stream without a lookup table. Replay is one `XRANGE` from the given id (a snapshot: events stored meanwhile are the
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
  if (options.idKey !== undefined && Buffer.from(options.idKey).length < 16) {
    throw new RangeError("idKey must have at least 16 bytes");
  }
  let idKey: Promise<Buffer> | undefined =
    options.idKey === undefined ? undefined : Promise.resolve(Buffer.from(options.idKey));

  /** The id key: given, or the one kept in Redis (read once; a failed read is tried again next time). */
  function key(): Promise<Buffer> {
    idKey ??= client
      .eval(ID_KEY, { keys: [`${prefix}events:key`], arguments: [randomBytes(32).toString("hex")] })
      .then((hex) => Buffer.from(String(hex), "hex"))
      .catch((error: unknown) => {
        idKey = undefined;
        throw error;
      });
    return idKey;
  }

  function tagOf(secret: Buffer, streamId: string, entryId: string): string {
    return createHmac("sha256", secret).update(`${streamId}_${entryId}`).digest("hex").slice(0, 32);
  }

  /** The stream and entry an event id names, when its tag verifies. */
  async function parse(eventId: string): Promise<{ streamId: string; entryId: string } | undefined> {
    const tagCut = eventId.lastIndexOf("_");
    if (tagCut <= 0) return undefined;
    const cut = eventId.lastIndexOf("_", tagCut - 1);
    if (cut <= 0) return undefined;
    const tag = eventId.slice(tagCut + 1);
    const entryId = eventId.slice(cut + 1, tagCut);
    if (!TAG.test(tag) || !ENTRY_ID.test(entryId)) return undefined;
    const streamId = eventId.slice(0, cut);
    const expected = tagOf(await key(), streamId, entryId);
    if (!timingSafeEqual(Buffer.from(tag), Buffer.from(expected))) return undefined;
    return { streamId, entryId };
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
      const secret = await key();
      const streamKey = keyOf(streamId);
      const fields = message === null ? { [PRIMING]: "1" } : { [DATA]: JSON.stringify(message) };
      const [entryId] = await client
        .multi()
        .xAdd(streamKey, "*", fields, {
          TRIM: { strategy: "MAXLEN", strategyModifier: "=", threshold: maxEvents },
        })
        .pExpire(streamKey, ttlMs)
        .exec();
      return `${streamId}_${String(entryId)}_${tagOf(secret, streamId, String(entryId))}`;
    },
    async streamIdOf(eventId) {
      const parsed = await parse(eventId);
      if (parsed === undefined) return undefined;
      // Known means still stored: an evicted id would resume with a silent gap.
      const entries = await from(keyOf(parsed.streamId), parsed.entryId, 1);
      return entries === undefined ? undefined : parsed.streamId;
    },
    async replayEventsAfter(lastEventId, send) {
      const parsed = await parse(lastEventId);
      if (parsed === undefined) return;
      const secret = await key();
      const entries = await from(keyOf(parsed.streamId), parsed.entryId);
      if (entries === undefined) return;
      for (let i = 1; i < entries.length; i++) {
        const entry = entries[i]!;
        const data = entry.message[DATA];
        if (data === undefined) continue;
        const id = `${parsed.streamId}_${entry.id}_${tagOf(secret, parsed.streamId, entry.id)}`;
        await send(id, JSON.parse(String(data)) as JsonRpcMessage);
      }
    },
    async deleteStreams(streamIds) {
      if (streamIds.length > 0) await client.del(streamIds.map(keyOf));
    },
  };
}
