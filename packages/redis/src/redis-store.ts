import { randomBytes } from "node:crypto";
import type { EventStore } from "@mcpkit/transport-http";
import { createRedisBus, type RedisBus } from "./bus.js";
import { DEFAULT_REDIS_URL, openRedis, type RedisConnection } from "./connection.js";
import { createRedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
import { createRedisSessionStore, type RedisSessionStore } from "./session-store.js";
import { createRedisTaskStore, type RedisTaskStore, type RedisTaskStoreOptions } from "./task-store.js";

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** A Redis URL; default {@link DEFAULT_REDIS_URL}. Ignored when `client` is given. */
  url?: string | undefined;
  /** A connection to use instead of opening one; `close()` never closes it. */
  client?: RedisConnection | undefined;
  /** Prefix of every key and channel, so several apps share one Redis; default `"mcpkit:"`. */
  prefix?: string | undefined;
  /**
   * The `requestState` key ring every instance must share (current key first): an array, or one string of
   * comma-separated secrets (the form of `MCPKIT_STATE_KEYS`). Default: one random key the instances agree
   * on through Redis (`<prefix>state-key`, made by the first instance), so MRTR rounds continue across
   * instances with nothing to configure — but anyone who can read that Redis can then forge a state, and
   * it never rotates: give your own ring in production.
   */
  stateKeys?: string | readonly (string | Uint8Array)[] | undefined;
  /** Task store settings (see `createRedisTaskStore`). */
  tasks?: Pick<RedisTaskStoreOptions, "ttlMs" | "leaseMs">;
  /** Event store bounds (see `createRedisEventStore`). */
  events?: Pick<RedisEventStoreOptions, "maxEventsPerStream" | "ttlMs">;
  /** Most messages kept for a legacy GET stream nobody holds (see `createRedisSessionStore`). Default 1000. */
  maxKept?: number;
  /**
   * Failures no request sees: a lost bus subscription, a malformed message, a lease renewal that failed.
   * Default: `console.error` (the bus's default; task-store failures are logged too).
   */
  onError?: (error: unknown) => void;
}

/**
 * The four Redis stores on one connection: what `@mcpkit/server` takes (`tasks`, `bus`,
 * `requestStateKey`: pass the object to `server.useStores`) and what the HTTP handler takes
 * (`eventStore`, `sessionStore`: pass them to `listen()`), or the whole object to
 * `serve(server, { transport: "http", store })` of `mcpkit`.
 */
export interface RedisStore {
  /** The connection every store uses. */
  readonly client: RedisConnection;
  /** The tasks extension's store (`ServerOptions.tasks.store`), with its cross-instance signals. */
  readonly tasks: RedisTaskStore;
  /** The notification bus (`ServerOptions.bus`). */
  readonly bus: RedisBus;
  /** The key ring (`ServerOptions.requestStateKey`), current key first. */
  readonly requestStateKey: readonly (string | Uint8Array)[];
  /** Resumable SSE (`StreamableHttpHandlerOptions.eventStore`). */
  readonly eventStore: EventStore;
  /** Legacy sessions without sticky routing (`StreamableHttpHandlerOptions.sessionStore`). */
  readonly sessionStore: RedisSessionStore;
  /**
   * Closes the session store, the bus and the task store (dropping its leases), then the connection when
   * this call opened it. Close the HTTP server (and the server) first: they may still be using them.
   * Idempotent.
   */
  close(): Promise<void>;
}

/** Parses a ring given as one comma-separated string (`MCPKIT_STATE_KEYS`); blank entries are dropped. */
function ringOf(keys: string | readonly (string | Uint8Array)[]): readonly (string | Uint8Array)[] {
  const ring =
    typeof keys === "string"
      ? keys
          .split(",")
          .map((k) => k.trim())
          .filter((k) => k !== "")
      : keys;
  if (ring.length === 0) throw new RangeError("stateKeys must hold at least one key");
  return ring;
}

/**
 * Opens one Redis connection (or uses `client`) and builds every store a server instance shares with
 * the others behind a load balancer: the task store, the notification bus, the event store, the legacy
 * session store, and the `requestState` key ring. Resolves once the bus and the session store are
 * subscribed. Nothing of it is on a plain modern `tools/call`'s path: that request touches no store.
 * @throws Error naming the URL when Redis cannot be reached; RangeError for an empty `stateKeys`.
 */
export async function redisStore(options: RedisStoreOptions = {}): Promise<RedisStore> {
  const prefix = options.prefix ?? "mcpkit:";
  const requestStateKey = options.stateKeys === undefined ? undefined : ringOf(options.stateKeys);
  const onError =
    options.onError ??
    ((error: unknown) => console.error("[mcpkit/redis]", error instanceof Error ? error.message : error));
  const own = options.client === undefined;
  const client = options.client ?? (await openRedis(options.url ?? DEFAULT_REDIS_URL));
  const opened: Array<{ close(): Promise<void> }> = [];
  try {
    const ring = requestStateKey ?? [await sharedKey(client, `${prefix}state-key`)];
    const tasks = createRedisTaskStore(Object.assign({ client, prefix, onError }, options.tasks));
    opened.push(tasks);
    const bus = await createRedisBus({ client, prefix, onError: (error) => onError(error) });
    opened.push(bus);
    const sessionStore = await createRedisSessionStore(
      options.maxKept === undefined ? { client, prefix } : { client, prefix, maxKept: options.maxKept },
    );
    opened.push(sessionStore);
    const eventStore = createRedisEventStore(Object.assign({ client, prefix }, options.events));
    let closing: Promise<void> | undefined;
    return {
      client,
      tasks,
      bus,
      requestStateKey: ring,
      eventStore,
      sessionStore,
      close() {
        closing ??= (async () => {
          // Dependents first: the session store and the bus subscribe on duplicates of the connection.
          await sessionStore.close().catch(onError);
          await bus.close().catch(onError);
          await tasks.close().catch(onError);
          if (own) await client.close().catch(onError);
        })();
        return closing;
      },
    };
  } catch (error) {
    for (const store of opened.reverse()) await store.close().catch(() => {});
    if (own) await client.close().catch(() => {});
    throw error;
  }
}

/** The key every instance sharing `key` agrees on: the first to ask makes it (SET NX), the others read it. */
async function sharedKey(client: RedisConnection, key: string): Promise<string> {
  const made = randomBytes(32).toString("base64");
  await client.set(key, made, { condition: "NX" });
  const agreed = await client.get(key);
  if (typeof agreed !== "string") throw new Error(`Cannot read the shared requestState key at ${key}`);
  return agreed;
}
