import type { Conn } from "./connection.js";
import type { CallInfo } from "./internal/context.js";
import type { Listener } from "./listen.js";
import type { ServerCore } from "./server-core.js";
import { subscriptionChange } from "./shared-session.js";

type Params = Record<string, unknown>;

/**
 * Tells every subscriber of `uri` that it changed: legacy sessions that sent `resources/subscribe` for it
 * and `subscriptions/listen` streams whose `resourceSubscriptions` name it. Exact URI match only; a client
 * that went away is not an error.
 */
export function notifyResourceUpdated(
  connections: ReadonlySet<Conn>,
  listeners: ReadonlySet<Listener>,
  uri: string,
): void {
  for (const conn of connections) {
    if (conn.session?.subscriptions.has(uri)) {
      conn.peer.notify("notifications/resources/updated", { uri }).catch(() => {});
    }
  }
  for (const listener of listeners) {
    if (listener.filter.resourceSubscriptions?.includes(uri)) {
      listener.send("notifications/resources/updated", { uri });
    }
  }
}

/**
 * `resources/subscribe` and `resources/unsubscribe` of a legacy session (the method table checked
 * `params.uri` and the session). The URI need not be registered: a template may serve it later.
 */
export function subscribeResource(
  _core: ServerCore,
  call: CallInfo,
  p: Params,
  legacy: Conn | undefined,
): Params | Promise<Params> {
  // A legacy-only row: the dispatcher runs it in a session's connection.
  const conn = legacy!;
  const subscriptions = conn.session!.subscriptions;
  const on = call.method === "resources/subscribe";
  if (on) subscriptions.add(p.uri as string);
  else subscriptions.delete(p.uri as string);
  // A session shared by several instances: answered once the shared store has the change.
  if (conn.shared) return conn.shared.write(subscriptionChange(p.uri as string, on)).then(() => ({}));
  return {};
}
