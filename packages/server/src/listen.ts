import type { JsonRpcId } from "@mcpkit/jsonrpc";
import { isObject } from "@mcpkit/jsonrpc";
import { hasCapability, McpError, MetaKey } from "@mcpkit/protocol";
import { serverCapabilities } from "./capabilities.js";
import type { CallInfo } from "./internal/context.js";
import type { ServerCore } from "./server-core.js";
import { ownerOf } from "./task-publication.js";
import { TASKS_CAPABILITY_PATH, TASKS_REQUIRED } from "./tasks.js";

type Params = Record<string, unknown>;

/** One open `subscriptions/listen` stream: what it asked for (and was granted), and how to reach it. */
export interface Listener {
  /** The honored part of the request's `notifications` filter. */
  filter: {
    toolsListChanged?: boolean;
    promptsListChanged?: boolean;
    resourcesListChanged?: boolean;
    resourceSubscriptions?: string[];
    taskIds?: string[];
  };
  /**
   * The authorization subject of the client (as tasks are bound to it), set when `taskIds` was granted:
   * `notifications/tasks` reach only the streams of the task's owner.
   */
  owner?: string;
  /** Sends a notification on the stream, tagged with its subscription id; a gone client is not an error. */
  send(method: string, params: Record<string, unknown>): void;
  /** Ends the stream with its graceful result (server shutdown). */
  end(): void;
}

/**
 * `subscriptions/listen` (2026-07-28): grants the parts of the filter the server supports, acknowledges
 * them with `notifications/subscriptions/acknowledged`, then keeps the request open in
 * `core.listeners` until the client cancels it (rejects with the abort reason) or the server closes
 * (resolves with a `complete` result). Every notification carries the subscription id (the request id)
 * in `_meta`. The method table checked that `params.notifications` is an object.
 * @throws McpError -32602 for a malformed filter; the missing-capability error when `taskIds` is asked
 * without the client declaring the tasks extension.
 * @see SPEC.md §3.11
 */
export async function listen(core: ServerCore, call: CallInfo, p: Params): Promise<Params> {
  const filter = p.notifications as Record<string, unknown>;
  const caps = serverCapabilities(core, "modern");
  const honored: Listener["filter"] = {};
  if (filter.toolsListChanged === true && caps.tools) honored.toolsListChanged = true;
  if (filter.promptsListChanged === true && caps.prompts) honored.promptsListChanged = true;
  if (filter.resourcesListChanged === true && caps.resources) honored.resourcesListChanged = true;
  if (filter.resourceSubscriptions !== undefined) {
    if (!Array.isArray(filter.resourceSubscriptions))
      throw McpError.invalidParams("resourceSubscriptions must be an array");
    if (caps.resources?.subscribe) {
      honored.resourceSubscriptions = filter.resourceSubscriptions.filter(
        (u): u is string => typeof u === "string",
      );
    }
  }
  if (filter.taskIds !== undefined) {
    if (!Array.isArray(filter.taskIds)) throw McpError.invalidParams("taskIds must be an array");
    if (!hasCapability(call.clientCapabilities, TASKS_CAPABILITY_PATH)) {
      throw McpError.missingClientCapability(TASKS_REQUIRED);
    }
    if (core.tasksEnabled) honored.taskIds = filter.taskIds.filter((t): t is string => typeof t === "string");
  }
  const rctx = call.rctx;
  const subscriptionId: JsonRpcId = rctx.id;
  const tag = { [MetaKey.SubscriptionId]: subscriptionId };
  const signal = rctx.signal;
  if (signal.aborted) throw signal.reason;
  const listeners = core.listeners;
  let listener!: Listener;
  const closedResult = (): Params => ({ resultType: "complete", _meta: tag });
  const ended = new Promise<Params>((resolve, reject) => {
    const cleanup = () => {
      listeners.delete(listener);
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      cleanup();
      reject(signal.reason);
    };
    listener = {
      filter: honored,
      send: (method, params) => {
        const meta = isObject(params._meta) ? params._meta : {};
        rctx.notify(method, Object.assign({}, params, { _meta: { ...meta, ...tag } })).catch(() => {});
      },
      end: () => {
        cleanup();
        resolve(closedResult());
      },
    };
    if (honored.taskIds !== undefined) {
      const owner = ownerOf(rctx.info?.authInfo);
      if (owner !== undefined) listener.owner = owner;
    }
    signal.addEventListener("abort", onAbort, { once: true });
  });
  if (core.isClosed) return closedResult();
  // Registered before the acknowledgement is sent: every later notification is sent after it, in order.
  listeners.add(listener);
  await rctx.notify("notifications/subscriptions/acknowledged", { _meta: tag, notifications: honored });
  return ended;
}

/** Ends every open listen stream with its graceful result (server shutdown). */
export function endListeners(listeners: ReadonlySet<Listener>): void {
  for (const listener of [...listeners]) listener.end();
}
