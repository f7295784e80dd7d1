import { randomId } from "./internal/encoding.js";
import type { ListKind } from "./internal/registry.js";
import type { NotificationBus, NotificationEvent } from "./notification-bus.js";
import { notifyResourceUpdated } from "./resource-updates.js";
import type { ServerCore } from "./server-core.js";
import { deliverTaskStatus } from "./task-publication.js";

/**
 * One server's end of a {@link NotificationBus}: publishes what this instance raised (after it told its
 * own clients, which it does without the bus) and tells this instance's clients what other instances
 * raised. Made only when `ServerOptions.bus` is set, so a server without a bus pays nothing.
 *
 * Events carry this instance's random `origin`; its own echo is skipped, so each client is told once
 * whether the bus echoes to the publisher (Redis pub/sub does) or not. Delivering locally first, rather
 * than waiting for the echo, keeps local clients told when the bus is down and costs them no round trip.
 */
export class BusLink {
  /** This instance's id on the bus: random per server, never the hostname. */
  readonly origin = randomId();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: NotificationBus,
    private readonly core: ServerCore,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.receive(event));
  }

  /** Tells the other instances that list `kind` changed. */
  listChanged(kind: ListKind): void {
    this.publish({ type: "listChanged", origin: this.origin, kind });
  }

  /** Tells the other instances that resource `uri` changed. */
  resourceUpdated(uri: string): void {
    this.publish({ type: "resourceUpdated", origin: this.origin, uri });
  }

  /** Tells the other instances a task's new status (`task` in its wire form, `owner` beside it). */
  taskStatus(task: Record<string, unknown>, owner: string | undefined): void {
    const event: Extract<NotificationEvent, { type: "taskStatus" }> = {
      type: "taskStatus",
      origin: this.origin,
      task,
    };
    if (owner !== undefined) event.owner = owner;
    this.publish(event);
  }

  /** Stops receiving (server close). The bus itself stays open: its maker closes it. */
  detach(): void {
    this.unsubscribe();
  }

  private publish(event: NotificationEvent): void {
    const report = (error: unknown) =>
      this.core.logger.error(
        `Notification bus could not publish a ${event.type} event; clients of other instances were not told`,
        error,
      );
    try {
      this.bus.publish(event).catch(report);
    } catch (error) {
      // The contract says publish only rejects; a bus that throws must not break the caller either.
      report(error);
    }
  }

  private receive(event: NotificationEvent): void {
    if (event.origin === this.origin) return;
    const core = this.core;
    switch (event.type) {
      case "listChanged":
        core.changes.receive(event.kind);
        return;
      case "resourceUpdated":
        notifyResourceUpdated(core.connections, core.listeners, event.uri);
        return;
      case "taskStatus":
        deliverTaskStatus(core.listeners, event.task, event.owner);
        return;
    }
  }
}
