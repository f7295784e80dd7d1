import type { SubscriptionFilter } from "@mcpkit/protocol";
import "./async-dispose.js";

/** One notification delivered to a {@link Subscription}. */
export interface SubscriptionNotification {
  /** e.g. `notifications/tools/list_changed`, `notifications/resources/updated`. */
  method: string;
  params: Record<string, unknown>;
}

/**
 * A stream of server notifications matching a filter: the same object over `subscriptions/listen`
 * (2026-07-28) and over the legacy unsolicited notifications plus `resources/subscribe`.
 *
 * Iterate it with `for await`; the loop ends when {@link Subscription.close} is called (or `break`),
 * when the server ends the subscription gracefully, or with the error that ended it (the connection
 * closed, the server refused). Notifications that arrive while nobody iterates are queued.
 */
export interface Subscription extends AsyncIterableIterator<SubscriptionNotification> {
  /**
   * Resolves with the part of the filter the server honours once it acknowledged the subscription
   * (modern: `notifications/subscriptions/acknowledged`; legacy: once every `resources/subscribe` was
   * answered). Rejects with the error that ended the subscription first; a rejection that nobody awaits
   * is not reported as unhandled.
   */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** True once the subscription ended, for whatever reason. */
  readonly closed: boolean;
  /** Ends the subscription (cancels the listen request / unsubscribes); idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** @internal The producer side of a {@link Subscription}. */
export interface SubscriptionControl {
  readonly subscription: Subscription;
  readonly filter: SubscriptionFilter;
  /** Queues one notification for the consumer. Ignored once ended. */
  push(notification: SubscriptionNotification): void;
  /** Resolves `acknowledged`. */
  acknowledge(filter: SubscriptionFilter): void;
  /** Ends the stream: cleanly without an error, otherwise with it. */
  end(error?: Error): void;
  readonly ended: boolean;
  /** Resolves once the stream ended, whichever way. */
  readonly whenEnded: Promise<void>;
}

/**
 * @internal Creates a subscription whose `close()` runs `onClose` once (to cancel the listen request or
 * unsubscribe), then ends the stream.
 */
export function createSubscription(
  filter: SubscriptionFilter,
  onClose: () => Promise<void>,
): SubscriptionControl {
  const queue: SubscriptionNotification[] = [];
  const waiters: Array<{
    resolve(r: IteratorResult<SubscriptionNotification>): void;
    reject(e: unknown): void;
  }> = [];
  let ended = false;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;
  let ack!: (filter: SubscriptionFilter) => void;
  let nack!: (error: Error) => void;
  const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
    ack = resolve;
    nack = reject;
  });
  acknowledged.catch(() => {});
  let markEnded!: () => void;
  const whenEnded = new Promise<void>((resolve) => {
    markEnded = resolve;
  });

  function end(error?: Error): void {
    if (ended) return;
    ended = true;
    failure = error;
    markEnded();
    nack(error ?? new Error("The subscription ended before the server acknowledged it"));
    for (const waiter of waiters.splice(0)) {
      if (error) waiter.reject(error);
      else waiter.resolve({ value: undefined, done: true });
    }
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      if (ended) return;
      try {
        await onClose();
      } finally {
        end();
      }
    })();
    return closing;
  }

  const subscription: Subscription = {
    acknowledged,
    get closed() {
      return ended;
    },
    close,
    next() {
      const value = queue.shift();
      if (value) return Promise.resolve({ value, done: false });
      if (ended) {
        if (failure) {
          const error = failure;
          // Report the failure once; later calls see a finished iterator.
          failure = undefined;
          return Promise.reject(error);
        }
        return Promise.resolve({ value: undefined, done: true });
      }
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    async return() {
      await close();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return subscription;
    },
    [Symbol.asyncDispose]: close,
  };

  return {
    subscription,
    filter,
    get ended() {
      return ended;
    },
    whenEnded,
    push(notification) {
      if (ended) return;
      const waiter = waiters.shift();
      if (waiter) waiter.resolve({ value: notification, done: false });
      else queue.push(notification);
    },
    acknowledge(honoured) {
      ack(honoured);
    },
    end,
  };
}

/** @internal Whether a notification matches a filter (used where the server does not tag notifications). */
export function matchesFilter(
  filter: SubscriptionFilter,
  method: string,
  params: Record<string, unknown>,
): boolean {
  switch (method) {
    case "notifications/tools/list_changed":
      return filter.toolsListChanged === true;
    case "notifications/prompts/list_changed":
      return filter.promptsListChanged === true;
    case "notifications/resources/list_changed":
      return filter.resourcesListChanged === true;
    case "notifications/resources/updated":
      return typeof params.uri === "string" && (filter.resourceSubscriptions ?? []).includes(params.uri);
    case "notifications/tasks":
    case "notifications/tasks/status":
      return typeof params.taskId === "string" && (filter.taskIds ?? []).includes(params.taskId);
    default:
      return false;
  }
}
