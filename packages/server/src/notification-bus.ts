import { isObject } from "@mcpkit/jsonrpc";
import type { ListKind } from "./internal/registry.js";

/**
 * One notification that other instances of the same server must also tell their clients, as it
 * travels on a {@link NotificationBus}. Plain JSON: a bus may serialize it as it is.
 * - `listChanged`: `notifications/<kind>/list_changed` to initialized legacy sessions and to listen
 *   streams that asked for that kind.
 * - `resourceUpdated`: `notifications/resources/updated` to legacy sessions subscribed to `uri` and to
 *   listen streams whose `resourceSubscriptions` name it.
 * - `taskStatus`: `notifications/tasks` with `task` (the wire `DetailedTask`, without its owner) to
 *   listen streams whose `taskIds` name it and whose authorization subject is `owner` (absent: streams
 *   of unauthenticated clients).
 *
 * `origin` is the id of the server instance that raised it; a server ignores events of its own origin,
 * because it told its own clients already when it raised them.
 */
export type NotificationEvent =
  | { type: "listChanged"; origin: string; kind: ListKind }
  | { type: "resourceUpdated"; origin: string; uri: string }
  | { type: "taskStatus"; origin: string; task: Record<string, unknown>; owner?: string };

/**
 * Carries notifications between the instances of one server behind a load balancer
 * (`ServerOptions.bus`; `createRedisBus` of `@mcpkit/redis` is one). The contract:
 * - `publish` hands an event to every subscriber of every instance sharing the bus, the publisher's own
 *   subscribers included (a server skips its own echo by `origin`). Fire and forget: an instance that is
 *   not subscribed at that moment never sees the event, and events of one publisher arrive in the order
 *   they were published. It rejects when the event could not be sent (the server logs it; its own
 *   clients were told already); it never throws synchronously.
 * - `subscribe` registers a handler and returns the function that removes it. Handlers receive only
 *   events that pass {@link isNotificationEvent}; a bus reports malformed messages itself and never
 *   hands them over.
 * - `close` releases what the bus holds (connections). The server never calls it: whoever made the bus
 *   closes it, after the servers using it closed.
 */
export interface NotificationBus {
  publish(event: NotificationEvent): Promise<void>;
  subscribe(onEvent: (event: NotificationEvent) => void): () => void;
  close(): Promise<void>;
}

const LIST_KINDS: ReadonlySet<unknown> = new Set(["tools", "prompts", "resources"]);

/**
 * Whether `value` (for example a parsed bus message) is a well-formed {@link NotificationEvent}: a known
 * `type`, a string `origin`, and that type's fields with their types (a task with a string `taskId` and
 * `status`). Extra fields are allowed, so a newer instance may add some during a rolling deploy; an
 * unknown `type` is not an event.
 */
export function isNotificationEvent(value: unknown): value is NotificationEvent {
  if (!isObject(value) || typeof value.origin !== "string") return false;
  switch (value.type) {
    case "listChanged":
      return LIST_KINDS.has(value.kind);
    case "resourceUpdated":
      return typeof value.uri === "string";
    case "taskStatus": {
      const task = value.task;
      return (
        isObject(task) &&
        typeof task.taskId === "string" &&
        typeof task.status === "string" &&
        (value.owner === undefined || typeof value.owner === "string")
      );
    }
    default:
      return false;
  }
}
