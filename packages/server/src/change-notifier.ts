import type { Conn } from "./connection.js";
import type { ListKind } from "./internal/registry.js";
import type { Listener } from "./listen.js";

type ListFlag = "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";

/**
 * Tells clients that a list changed: `notifications/<kind>/list_changed` to every initialized legacy
 * session and to every `subscriptions/listen` stream whose filter asked for that kind. Changes made in
 * one turn (a burst of registrations) are told once, on the next microtask. A client that went away is
 * not an error. Does not decide what changed: the registry and `Server.notifyListChanged` say so.
 */
export class ChangeNotifier {
  private readonly pending = new Set<ListKind>();

  constructor(
    private readonly connections: ReadonlySet<Conn>,
    private readonly listeners: ReadonlySet<Listener>,
  ) {}

  /** Queues a change of `kind`; nothing is queued while nobody could be told. */
  schedule(kind: ListKind): void {
    if (this.connections.size === 0 && this.listeners.size === 0) return;
    if (this.pending.size === 0) queueMicrotask(() => this.flush());
    this.pending.add(kind);
  }

  private flush(): void {
    const kinds = [...this.pending];
    this.pending.clear();
    for (const kind of kinds) {
      const method = `notifications/${kind}/list_changed`;
      for (const conn of this.connections) {
        if (conn.session?.initialized) conn.peer.notify(method).catch(() => {});
      }
      const flag = `${kind}ListChanged` as ListFlag;
      for (const listener of this.listeners) if (listener.filter[flag]) listener.send(method, {});
    }
  }
}
