import type { BusLink } from "./bus-link.js";
import type { Conn } from "./connection.js";
import type { ListKind } from "./internal/registry.js";
import type { Listener } from "./listen.js";

type ListFlag = "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";

/**
 * Tells clients that a list changed: `notifications/<kind>/list_changed` to every initialized legacy
 * session and to every `subscriptions/listen` stream whose filter asked for that kind. Changes made in
 * one turn (a burst of registrations) are told once, on the next microtask; with a notification bus they
 * are also published once per kind then, and changes other instances published are told in the same
 * way (a kind changed here and elsewhere in one turn is told once). A client that went away is not an
 * error. Does not decide what changed: the registry and `Server.notifyListChanged` say so.
 */
export class ChangeNotifier {
  private readonly pending = new Set<ListKind>();
  /** Kinds other instances changed: told here, never published again. */
  private readonly received = new Set<ListKind>();

  constructor(
    private readonly connections: ReadonlySet<Conn>,
    private readonly listeners: ReadonlySet<Listener>,
    private readonly bus?: BusLink,
  ) {}

  /**
   * Queues a change of `kind` made by this instance. Without a bus nothing is queued while nobody could
   * be told; with one, the other instances' clients could be.
   */
  schedule(kind: ListKind): void {
    if (this.bus === undefined && this.connections.size === 0 && this.listeners.size === 0) return;
    if (this.pending.size === 0 && this.received.size === 0) queueMicrotask(() => this.flush());
    this.pending.add(kind);
  }

  /** Queues a change of `kind` another instance published; nothing is queued while nobody could be told. */
  receive(kind: ListKind): void {
    if (this.connections.size === 0 && this.listeners.size === 0) return;
    if (this.pending.size === 0 && this.received.size === 0) queueMicrotask(() => this.flush());
    this.received.add(kind);
  }

  private flush(): void {
    const bus = this.bus;
    if (bus !== undefined) {
      for (const kind of this.pending) bus.listChanged(kind);
      for (const kind of this.received) this.pending.add(kind);
      this.received.clear();
    }
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
