import { isNotificationEvent, type NotificationBus, type NotificationEvent } from "@mcpkit/server";
import type { RedisConnection } from "./connection.js";

/** Options of {@link createRedisBus}. */
export interface RedisBusOptions {
  /**
   * An open connection (e.g. from `openRedis`). It publishes; a duplicate of it, opened here, subscribes.
   * The bus never closes it.
   */
  client: RedisConnection;
  /** Prefix of the channel, so several apps (or servers) share one Redis; default `"mcpkit:"`. */
  prefix?: string;
  /**
   * Receives what the bus ignores or loses: a malformed message (not JSON, or not an event), a subscriber
   * that threw, and the subscription's connection dropping (once per outage). Default: `console.error`.
   */
  onError?: (error: Error) => void;
}

/** A {@link NotificationBus} on Redis pub/sub (see {@link createRedisBus}). */
export interface RedisBus extends NotificationBus {
  /** The one channel of this bus: `<prefix>notifications`. */
  readonly channel: string;
}

/**
 * A notification bus for `ServerOptions.bus` on Redis pub/sub: one channel per prefix
 * (`<prefix>notifications`), messages are the events as JSON, published on `client`, received on one
 * subscriber connection duplicated from it (named `<prefix>bus` in `CLIENT LIST`). Every server sharing
 * the Redis and the prefix gets every event, its own included (the server skips its own by `origin`).
 *
 * Fire and forget, as pub/sub is: an event published while an instance's subscription is down is never
 * seen by that instance (the subscription comes back by itself when Redis does, resubscribing on
 * reconnect). `publish` rejects with an error naming the channel when Redis cannot take the message (no
 * offline queue on an `openRedis` client: at once). A message that is not a well-formed event is
 * reported to `onError` and dropped; nothing a message holds can throw out of the bus.
 * @throws Error naming the channel when the subscriber cannot connect or subscribe.
 */
export async function createRedisBus(options: RedisBusOptions): Promise<RedisBus> {
  const client = options.client;
  const prefix = options.prefix ?? "mcpkit:";
  const channel = `${prefix}notifications`;
  const onError =
    options.onError ??
    ((error: Error) => console.error(`[mcpkit/redis] ${error.message}`, error.cause ?? ""));
  const handlers = new Set<(event: NotificationEvent) => void>();

  const receive = (message: string): void => {
    let event: unknown;
    try {
      event = JSON.parse(message);
    } catch (error) {
      onError(new Error(`Ignored a message on ${channel} that is not JSON`, { cause: error }));
      return;
    }
    if (!isNotificationEvent(event)) {
      onError(
        new Error(`Ignored a message on ${channel} that is not a notification event: ${clip(message)}`),
      );
      return;
    }
    for (const handler of handlers) {
      try {
        handler(event);
      } catch (error) {
        onError(new Error(`A subscriber of ${channel} threw`, { cause: error }));
      }
    }
  };

  // A connection in subscribe mode can do nothing else, hence a second one. CLIENT SETNAME refuses spaces.
  const subscriber = client.duplicate({
    name: `${prefix}bus`.replace(/[^\x21-\x7e]/g, "_"),
  }) as RedisConnection;
  let down = false;
  let closed = false;
  subscriber.on("error", (error: Error) => {
    // Reported once per outage; the client retries by itself and resubscribes when it is back.
    if (down || closed) return;
    down = true;
    onError(
      new Error(
        `Lost the subscription to ${channel}; events of other instances are missed until Redis is back`,
        {
          cause: error,
        },
      ),
    );
  });
  subscriber.on("ready", () => {
    down = false;
  });
  try {
    await subscriber.connect();
    await subscriber.subscribe(channel, receive);
  } catch (error) {
    closed = true;
    subscriber.destroy();
    throw new Error(`Cannot subscribe to ${channel}: ${reason(error)}`, { cause: error });
  }

  return {
    channel,
    async publish(event) {
      try {
        await client.publish(channel, JSON.stringify(event));
      } catch (error) {
        throw new Error(`Cannot publish to ${channel}: ${reason(error)}`, { cause: error });
      }
    },
    subscribe(handler) {
      // A wrapper per call: the same function subscribed twice is two subscriptions, removed one by one.
      const entry = (event: NotificationEvent) => handler(event);
      handlers.add(entry);
      return () => {
        handlers.delete(entry);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      handlers.clear();
      // Nothing to flush on a subscriber: dropping the connection unsubscribes it.
      subscriber.destroy();
    },
  };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
