import { createClient, type RedisClientType } from "@redis/client";

/** The Redis client type this package works with (`@redis/client`, the official client's core). */
export type RedisConnection = RedisClientType;

/** Where Redis is when nothing else is said. */
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/** How every store of this package reaches Redis. */
export interface RedisConnectionOptions {
  /** A Redis URL (`redis://host:port/db`); default {@link DEFAULT_REDIS_URL}. Ignored when `client` is given. */
  url?: string;
  /** Prefix of every key and channel, so several apps can share one Redis; default `"mcpkit:"`. */
  prefix?: string;
}

/**
 * Opens a connection to Redis and waits until it is ready. Commands issued while the connection is down
 * fail at once (no offline queue), so a request fails with a clear error instead of hanging; the client
 * reconnects by itself with a bounded backoff.
 * @throws Error naming the URL when Redis cannot be reached.
 */
export async function openRedis(url: string = DEFAULT_REDIS_URL): Promise<RedisConnection> {
  let connectedOnce = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      // The first connect fails at once (the caller learns Redis is not there); later drops are retried.
      reconnectStrategy: (retries, cause) => (connectedOnce ? Math.min(50 * 2 ** retries, 2_000) : cause),
    },
  }) as RedisConnection;
  // Without an error listener a dropped connection would be an unhandled 'error' event.
  client.on("error", () => {});
  try {
    await client.connect();
    connectedOnce = true;
  } catch (error) {
    await client.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot reach Redis at ${url}: ${reason}`, { cause: error });
  }
  return client;
}
