import { ConnectionClosedError } from "@mcpkit/jsonrpc";
import { type LoggingMessageNotificationParams, MetaKey, type SubscriptionFilter } from "@mcpkit/protocol";
import type { ClientLife } from "./client-life.js";
import { isObject } from "./internal/util.js";
import type { ClientOptions } from "./options.js";
import type { RequestChain } from "./request-chain.js";
import type { Session, SessionSource } from "./session.js";
import { createSubscription, matchesFilter, type Subscription } from "./subscription.js";

/** What subscriptions need from the rest of the client. */
export interface SubscriptionsHooks {
  readonly options: ClientOptions;
  readonly onError: (error: unknown) => void;
  /** Whether the client is open (a closing one sends no `resources/unsubscribe`). */
  readonly life: ClientLife;
  /** Every notification goes here first (the caches take `list_changed` and `resources/updated`). */
  beforeRouting(method: string, params: Record<string, unknown>): void;
}

/**
 * Every `subscribe()` stream, and where the server's notifications go. Modern: each stream is one
 * `subscriptions/listen` request; its notifications (and its acknowledgement) are tagged with that
 * request's id, learnt from the peer before the request leaves. Legacy: a stream takes the matching
 * notifications of the session, and its `resourceSubscriptions` become `resources/subscribe`, counted per
 * URI so that one server subscription serves every stream that wants it.
 */
export class Subscriptions {
  readonly #chain: RequestChain;
  readonly #hooks: SubscriptionsHooks;

  constructor(chain: RequestChain, hooks: SubscriptionsHooks) {
    this.#chain = chain;
    this.#hooks = hooks;
  }

  /**
   * Handles one notification of `s`: the caches (`beforeRouting`), `onLog`, the stream it belongs to (by
   * its subscription tag, else every matching stream), then `onNotification`. Callbacks that throw go to
   * `onError`.
   */
  handleNotification(s: Session, method: string, params: Record<string, unknown>): void {
    const hooks = this.#hooks;
    hooks.beforeRouting(method, params);
    if (method === "notifications/message") {
      try {
        hooks.options.onLog?.(params as unknown as LoggingMessageNotificationParams);
      } catch (error) {
        hooks.onError(error);
      }
    }
    const meta = isObject(params._meta) ? params._meta : undefined;
    const tag = meta?.[MetaKey.SubscriptionId];
    const tagged =
      typeof tag === "string" || typeof tag === "number" ? s.listens.get(String(tag)) : undefined;
    if (method === "notifications/subscriptions/acknowledged") {
      const honoured = isObject(params.notifications) ? (params.notifications as SubscriptionFilter) : {};
      const target = tagged ?? [...s.listens.values()][0];
      target?.acknowledge(honoured);
    } else if (method === "notifications/cancelled") {
      const id = params.requestId;
      const sub = typeof id === "string" || typeof id === "number" ? s.listens.get(String(id)) : undefined;
      // The server tore a listen stream down (stdio): end it; the pending request is dropped with it.
      sub?.subscription.close().catch(hooks.onError);
    } else if (method !== "notifications/progress" && method !== "notifications/message") {
      const notification = { method, params };
      if (tagged) tagged.push(notification);
      else if (tag === undefined) {
        for (const sub of s.subs) if (matchesFilter(sub.filter, method, params)) sub.push(notification);
      }
    }
    try {
      hooks.options.onNotification?.({ method, params });
    } catch (error) {
      hooks.onError(error);
    }
  }

  /**
   * A stream of the notifications matching `filter`, on the session `sessions` gives; it starts at once
   * and ends with the session.
   */
  subscribe(filter: SubscriptionFilter, sessions: SessionSource): Subscription {
    const copy: SubscriptionFilter = structuredClone(filter ?? {});
    let stop: () => Promise<void> = async () => {};
    const control = createSubscription(copy, () => stop());
    (async () => {
      const s = await sessions.ensure();
      if (control.ended) return;
      s.subs.add(control);
      if (s.era === "modern") {
        const controller = new AbortController();
        let key: string | undefined;
        stop = async () => {
          controller.abort(new ConnectionClosedError("The subscription was closed"));
        };
        this.#chain
          .request(
            s,
            "subscriptions/listen",
            { notifications: copy },
            {
              timeout: Number.POSITIVE_INFINITY,
              maxTotalTimeout: Number.POSITIVE_INFINITY,
              signal: controller.signal,
            },
            (id) => {
              // Registered before the request leaves: its acknowledgement is tagged with this id.
              key = String(id);
              s.listens.set(key, control);
            },
          )
          .then(
            () => control.end(),
            (error: unknown) => control.end(controller.signal.aborted ? undefined : (error as Error)),
          );
        void control.whenEnded.then(() => {
          if (key !== undefined) s.listens.delete(key);
          s.subs.delete(control);
        });
        return;
      }
      const uris = [...new Set(copy.resourceSubscriptions ?? [])];
      const acquired: string[] = [];
      stop = async () => {
        s.subs.delete(control);
        await Promise.all(acquired.map((uri) => this.#release(s, uri)));
      };
      try {
        for (const uri of uris) {
          await this.#acquire(s, uri);
          acquired.push(uri);
          if (control.ended) {
            await stop();
            return;
          }
        }
        control.acknowledge(copy);
      } catch (error) {
        await stop().catch(this.#hooks.onError);
        throw error;
      }
    })().catch((error: unknown) => control.end(error instanceof Error ? error : new Error(String(error))));
    return control.subscription;
  }

  /** Legacy: `resources/subscribe` for the first stream that wants `uri`. */
  async #acquire(s: Session, uri: string): Promise<void> {
    const count = s.resourceRefs.get(uri) ?? 0;
    s.resourceRefs.set(uri, count + 1);
    if (count > 0) return;
    try {
      await this.#chain.request(s, "resources/subscribe", { uri }, undefined);
    } catch (error) {
      s.resourceRefs.set(uri, (s.resourceRefs.get(uri) ?? 1) - 1);
      throw error;
    }
  }

  /** Legacy: `resources/unsubscribe` once the last stream that wanted `uri` let go. */
  async #release(s: Session, uri: string): Promise<void> {
    const count = (s.resourceRefs.get(uri) ?? 0) - 1;
    if (count > 0) {
      s.resourceRefs.set(uri, count);
      return;
    }
    s.resourceRefs.delete(uri);
    if (s.dead || !this.#hooks.life.isOpen()) return;
    await this.#chain.request(s, "resources/unsubscribe", { uri }, undefined).catch(this.#hooks.onError);
  }
}
