import { randomUUID } from "node:crypto";
import type { StoredTask, TaskSignal, TaskSignals, TaskStore } from "@mcpkit/server";
import type { RedisConnection } from "./connection.js";

/** Options of {@link createRedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** An open connection (see `openRedis`); the store never closes it. Signals use a duplicate of it. */
  client: RedisConnection;
  /** Prefix of every key and channel; default `"mcpkit:"`. */
  prefix?: string;
  /** How long a record whose own `ttlMs` is `null` (unlimited) is kept after creation. Default 1 hour. */
  ttlMs?: number;
  /**
   * How long the instance running a task may go without renewing its lease before the task counts as
   * dead (renewed every third of it). Default 10 s.
   */
  leaseMs?: number;
  /** Failures no request sees (a lease renewal, a malformed signal). Default: ignored. */
  onError?: (error: unknown) => void;
}

/** A {@link TaskStore} on Redis, shared by every instance given the same Redis and prefix. */
export interface RedisTaskStore extends TaskStore {
  readonly signals: TaskSignals;
  /** This store's random instance id (the value of the leases it holds). */
  readonly instanceId: string;
  /**
   * Stops renewing leases and drops the ones held (their tasks read as failed from then on: nothing runs
   * them any more), and ends the signal subscription. Does not close `client`. Idempotent.
   */
  close(): Promise<void>;
}

/** The error a task gets when the instance running it stopped renewing its lease. */
export const LEASE_LAPSED_MESSAGE = "The server instance running this task stopped (its lease lapsed)";

// Writes a record unless the stored one is final (or gone): the first final word stands, whatever the
// order two instances' writes arrive in. With ARGV[4] = "lapse", only while no lease is held.
// KEYS: record, lease. ARGV: status, json, "1" when the new status is final, "lapse" or "".
const UPDATE = `
local s = redis.call('HGET', KEYS[1], 's')
if not s or s == 'completed' or s == 'failed' or s == 'cancelled' then return 0 end
if ARGV[4] == 'lapse' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'j', ARGV[2])
if ARGV[3] == '1' then redis.call('DEL', KEYS[2]) end
return 1`;

// Renews the lease of a task still running; drops it (and answers 0) once the record is final or gone.
// KEYS: record, lease. ARGV: instance id, lease ms.
const RENEW = `
local s = redis.call('HGET', KEYS[1], 's')
if not s or s == 'completed' or s == 'failed' or s == 'cancelled' then
  redis.call('DEL', KEYS[2])
  return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1`;

const isFinal = (status: string | undefined) =>
  status === "completed" || status === "failed" || status === "cancelled";

/**
 * The tasks extension's `TaskStore` on Redis: a task created on one instance is visible, updatable and
 * cancellable through any other, and its result is readable from any instance.
 *
 * - A record is a hash `<prefix>task:<id>` (`s`: status, `j`: the record's JSON), expiring `ttlMs` after
 *   creation (the record's own `ttlMs`, or the store's when that is `null`). Updates go through a Lua
 *   script that never replaces a final record, so racing instances cannot lose a final state.
 * - Lease: the instance that creates a task runs it and holds `<prefix>task-lease:<id>` (`leaseMs`,
 *   renewed every third of it by one unref'd timer while it holds any, stopped by a final update or
 *   {@link RedisTaskStore.close}). When the lease lapses (the instance died), the first read of the
 *   record makes it `failed` with {@link LEASE_LAPSED_MESSAGE} — never `working` forever.
 * - Signals (`tasks/cancel`, `tasks/update` reaching an instance that does not run the task) travel on
 *   the pub/sub channel `<prefix>task-signals`, subscribed on a duplicate connection made on first use.
 * @throws RangeError for a `ttlMs` or `leaseMs` that is not a positive integer.
 */
export function createRedisTaskStore(options: RedisTaskStoreOptions): RedisTaskStore {
  const { client } = options;
  const prefix = options.prefix ?? "mcpkit:";
  const ttlMs = options.ttlMs ?? 3_600_000;
  const leaseMs = options.leaseMs ?? 10_000;
  const onError = options.onError ?? (() => {});
  for (const [name, value] of [
    ["ttlMs", ttlMs],
    ["leaseMs", leaseMs],
  ] as const) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
    }
  }
  const instanceId = randomUUID();
  const channel = `${prefix}task-signals`;
  const recordKey = (id: string) => `${prefix}task:${id}`;
  const leaseKey = (id: string) => `${prefix}task-lease:${id}`;
  const held = new Set<string>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const subscribers = new Set<RedisConnection>();
  let closed = false;

  function hold(taskId: string): void {
    held.add(taskId);
    if (timer === undefined) {
      timer = setInterval(renewAll, Math.max(1, Math.floor(leaseMs / 3)));
      // A lease never keeps the process alive.
      timer.unref();
    }
  }

  function release(taskId: string): void {
    held.delete(taskId);
    if (held.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  function renewAll(): void {
    for (const taskId of held) {
      client
        .eval(RENEW, {
          keys: [recordKey(taskId), leaseKey(taskId)],
          arguments: [instanceId, String(leaseMs)],
        })
        .then((renewed) => {
          if (renewed === 0) release(taskId);
        })
        // Redis is down: try again on the next tick (the lease may lapse meanwhile; that is its purpose).
        .catch(onError);
    }
  }

  async function write(task: StoredTask, lapse: boolean): Promise<boolean> {
    const final = isFinal(task.status);
    const written = await client.eval(UPDATE, {
      keys: [recordKey(task.taskId), leaseKey(task.taskId)],
      arguments: [task.status, JSON.stringify(task), final ? "1" : "0", lapse ? "lapse" : ""],
    });
    if (final) release(task.taskId);
    return written === 1;
  }

  async function read(taskId: string): Promise<StoredTask | undefined> {
    const [fields, leased] = await client
      .multi()
      .hmGet(recordKey(taskId), ["s", "j"])
      .exists(leaseKey(taskId))
      .exec();
    const [status, json] = fields as unknown as [string | null, string | null];
    if (status === null || json === null) return undefined;
    const task = JSON.parse(json) as StoredTask;
    if (isFinal(status) || Number(leased) === 1) return task;
    // Nobody holds the lease of a running task: its instance is gone.
    const now = new Date().toISOString();
    task.status = "failed";
    task.statusMessage = LEASE_LAPSED_MESSAGE;
    task.error = { code: -32603, message: LEASE_LAPSED_MESSAGE };
    task.lastUpdatedAt = now;
    delete task.inputRequests;
    if (await write(task, true)) return task;
    // Another write won (a final state, or the instance came back and renewed): read what stands.
    return read(taskId);
  }

  const signals: TaskSignals = {
    async publish(signal: TaskSignal) {
      await client.publish(channel, JSON.stringify(signal));
    },
    async subscribe(listener) {
      if (closed) throw new Error("The Redis task store was closed");
      const connection = client.duplicate() as RedisConnection;
      subscribers.add(connection);
      try {
        // A duplicate inherits the reconnect strategy, which retries for ever once the original connected
        // once: its first connect would wait as long as Redis is down. The first failure fails it instead
        // (the server tries again on the next task start).
        await new Promise<void>((resolve, reject) => {
          connection.once("error", reject);
          connection.connect().then(() => {
            connection.off("error", reject);
            resolve();
          }, reject);
        });
        connection.on("error", () => {});
      } catch (error) {
        subscribers.delete(connection);
        connection.on("error", () => {});
        connection.destroy();
        throw error;
      }
      await connection.subscribe(channel, (message) => {
        let signal: TaskSignal;
        try {
          signal = JSON.parse(message) as TaskSignal;
        } catch (error) {
          onError(error);
          return;
        }
        if (typeof signal?.taskId === "string") listener(signal);
      });
    },
  };

  return {
    instanceId,
    signals,
    async create(task) {
      const key = recordKey(task.taskId);
      await client
        .multi()
        .hSet(key, { s: task.status, j: JSON.stringify(task) })
        .pExpire(key, task.ttlMs ?? ttlMs)
        .set(leaseKey(task.taskId), instanceId, { expiration: { type: "PX", value: leaseMs } })
        .exec();
      if (!isFinal(task.status)) hold(task.taskId);
    },
    get: read,
    async update(task) {
      await write(task, false);
    },
    async close() {
      if (closed) return;
      closed = true;
      const leases = [...held].map(leaseKey);
      for (const taskId of [...held]) release(taskId);
      const ending = [...subscribers].map((connection) => connection.close());
      subscribers.clear();
      await Promise.allSettled([leases.length > 0 ? client.del(leases) : undefined, ...ending]);
    },
  };
}
