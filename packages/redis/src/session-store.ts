import { randomBytes } from "node:crypto";
import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import type { SessionRecord, SessionSignal, SessionStore } from "@mcpkit/transport-http";
import { DEFAULT_REDIS_URL, openRedis, type RedisConnection } from "./connection.js";
import { RedisSessionState } from "./session-state.js";

/** Options of {@link createRedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A Redis URL; default {@link DEFAULT_REDIS_URL}. Ignored when `client` is given. */
  url?: string;
  /** A connection to use (not closed by the store's `close`); default: one opened from `url`. */
  client?: RedisConnection;
  /** Prefix of every key and channel; default `"mcpkit:"`. */
  prefix?: string;
  /** Most messages kept for a GET stream nobody holds (oldest dropped first). Default 1000. */
  maxKept?: number;
}

/** A {@link SessionStore} on Redis; `close()` unsubscribes and closes the connections it opened. */
export interface RedisSessionStore extends SessionStore {
  close(): Promise<void>;
}

// Hash fields of a record (the routing half): `v` the version, `r` the revision, `o` the identity that
// opened the session, `h` the instance holding the GET stream; the server's fields are the state half's
// (RedisSessionState, `f:<name>`).

// KEYS: record, kept list. ARGV: this instance. Returns the kept messages (and forgets them).
const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('HSET', KEYS[1], 'h', ARGV[1])
local kept = redis.call('LRANGE', KEYS[2], 0, -1)
redis.call('DEL', KEYS[2])
return kept`;

// KEYS: record. ARGV: this instance.
const RELEASE = `
if redis.call('HGET', KEYS[1], 'h') == ARGV[1] then redis.call('HDEL', KEYS[1], 'h') end
return 0`;

// To the GET stream's holder; kept (bounded, with the record's TTL) when nobody holds it or the holder is
// gone (PUBLISH reached no one: its claim is dropped).
// KEYS: record, kept list. ARGV: channel prefix, the `outbound` signal, the message, most kept.
const TO_STREAM = `
local holder = redis.call('HGET', KEYS[1], 'h')
if holder then
  if redis.call('PUBLISH', ARGV[1] .. holder, ARGV[2]) > 0 then return 1 end
  redis.call('HDEL', KEYS[1], 'h')
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[4]), -1)
redis.call('PEXPIRE', KEYS[2], ttl)
return 2`;

/** A signal on the wire: kind, session, message (inbound, outbound), revision and changes (changed). */
interface WireSignal {
  k: SessionSignal["kind"];
  s: string;
  m?: JsonRpcMessage;
  r?: number;
  c?: Record<string, string | null>;
}

/**
 * Creates the Redis implementation of `@mcpkit/transport-http`'s {@link SessionStore}, for legacy
 * sessions served by several instances without sticky routing. Each instance gets a random id. A record
 * is a hash `<prefix>session:{<id>}` (version, revision, GET stream holder, the server's fields) with a
 * TTL; messages kept for a GET stream nobody holds are a list beside it. Signals travel by pub/sub: one
 * channel per instance (`<prefix>sessions:to:<instance>`) and one for all (`<prefix>sessions:all`), so
 * nothing polls. Every state change is one atomic command or script.
 * @throws Error naming the URL when Redis cannot be reached.
 */
export async function createRedisSessionStore(
  options: RedisSessionStoreOptions = {},
): Promise<RedisSessionStore> {
  const prefix = options.prefix ?? "mcpkit:";
  const maxKept = options.maxKept ?? 1000;
  const own = options.client === undefined;
  const client = options.client ?? (await openRedis(options.url ?? DEFAULT_REDIS_URL));
  const instanceId = randomBytes(6).toString("hex");
  const toPrefix = `${prefix}sessions:to:`;
  const allChannel = `${prefix}sessions:all`;
  const record = (id: string) => `${prefix}session:{${id}}`;
  const kept = (id: string) => `${prefix}session:{${id}}:kept`;
  // The server's fields, in the same hash: read with the record, written by their own script.
  const state = new RedisSessionState(client, instanceId, toPrefix);
  const wire = (signal: SessionSignal): string => {
    const out: WireSignal = { k: signal.kind, s: signal.sessionId };
    if ("message" in signal) out.m = signal.message;
    if (signal.kind === "changed") {
      out.r = signal.revision;
      out.c = signal.changes as Record<string, string | null>;
    }
    return JSON.stringify(out);
  };

  let receiver: ((signal: SessionSignal) => void) | undefined;
  const onWire = (text: string) => {
    let parsed: WireSignal;
    try {
      parsed = JSON.parse(text) as WireSignal;
    } catch {
      return;
    }
    let signal: SessionSignal;
    if (parsed.k === "changed") {
      signal = { kind: "changed", sessionId: parsed.s, revision: Number(parsed.r), changes: parsed.c ?? {} };
    } else if (parsed.k === "ended") {
      signal = { kind: "ended", sessionId: parsed.s };
    } else if (parsed.m !== undefined && (parsed.k === "inbound" || parsed.k === "outbound")) {
      signal = { kind: parsed.k, sessionId: parsed.s, message: parsed.m };
    } else return;
    receiver?.(signal);
  };
  // A subscribed connection can issue nothing else: a second one, which resubscribes when it reconnects.
  const subscriber = client.duplicate();
  subscriber.on("error", () => {});
  try {
    await subscriber.connect();
    await subscriber.subscribe([toPrefix + instanceId, allChannel], onWire);
  } catch (error) {
    await subscriber.destroy();
    if (own) await client.close();
    throw error;
  }

  return {
    instanceId,
    listen(fn) {
      receiver = fn;
    },
    async create(sessionId, protocolVersion, ttlMs, owner = "anonymous") {
      await client
        .multi()
        .hSet(record(sessionId), { v: protocolVersion, r: "0", o: owner })
        .pExpire(record(sessionId), ttlMs)
        .exec();
    },
    async touch(sessionId, ttlMs): Promise<SessionRecord | undefined> {
      const key = record(sessionId);
      // One round trip: the TTL restarted, the record read.
      const [, hash] = (await client.multi().pExpire(key, ttlMs).hGetAll(key).exec()) as unknown as [
        number,
        Record<string, string>,
      ];
      if (hash === undefined || hash.v === undefined) return undefined;
      const fields = state.fieldsOf(hash);
      // A record without `o` (written before owners were kept) reads as anonymous: the handler's default.
      return { protocolVersion: hash.v, revision: Number(hash.r ?? 0), owner: hash.o ?? "anonymous", fields };
    },
    update(sessionId, changes) {
      return state.write(record(sessionId), sessionId, changes);
    },
    async end(sessionId) {
      await client
        .multi()
        .del([record(sessionId), kept(sessionId)])
        .publish(allChannel, wire({ kind: "ended", sessionId }))
        .exec();
    },
    async claimStream(sessionId) {
      const messages = (await client.eval(CLAIM, {
        keys: [record(sessionId), kept(sessionId)],
        arguments: [instanceId],
      })) as string[];
      return messages.map((text) => JSON.parse(text) as JsonRpcMessage);
    },
    async releaseStream(sessionId) {
      await client.eval(RELEASE, { keys: [record(sessionId)], arguments: [instanceId] });
    },
    async toStream(sessionId, message) {
      const json = JSON.stringify(message);
      await client.eval(TO_STREAM, {
        keys: [record(sessionId), kept(sessionId)],
        arguments: [toPrefix, wire({ kind: "outbound", sessionId, message }), json, String(maxKept)],
      });
    },
    async sendTo(instance, signal) {
      return (await client.publish(toPrefix + instance, wire(signal))) > 0;
    },
    async broadcast(signal) {
      await client.publish(allChannel, wire(signal));
    },
    async close() {
      receiver = undefined;
      await subscriber.unsubscribe().catch(() => {});
      await subscriber.close().catch(() => {});
      if (own) await client.close();
    },
  };
}
