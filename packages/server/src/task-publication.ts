import { isObject, JsonRpcError } from "@mcpkit/jsonrpc";
import { McpErrorCode } from "@mcpkit/protocol";
import type { BusLink } from "./bus-link.js";
import type { ToolEntry } from "./internal/registry.js";
import { toolErrorResult } from "./internal/results.js";
import type { Listener } from "./listen.js";
import type { ServerCore } from "./server-core.js";
import { type StoredTask, TaskCancelledError, wireTask } from "./tasks.js";
import { finishToolResult } from "./tool-output.js";
import type { ToolReturn } from "./types.js";

/**
 * Sends `notifications/tasks` with the task's wire form to every `subscriptions/listen` stream whose
 * `taskIds` name it and whose client is the task's owner (the same subject `tasks/get` requires), then,
 * with a notification bus, publishes it for the streams held by other instances. Called by the task
 * manager on every status change.
 */
export function publishTask(listeners: ReadonlySet<Listener>, task: StoredTask, bus?: BusLink): void {
  let wire: Record<string, unknown> | undefined;
  for (const listener of listeners) {
    if (listener.owner === task.owner && listener.filter.taskIds?.includes(task.taskId)) {
      // One wire copy serves every stream: each listener copies params before tagging them.
      wire ??= wireTask(task);
      listener.send("notifications/tasks", wire);
    }
  }
  if (bus !== undefined) bus.taskStatus(wire ?? wireTask(task), task.owner);
}

/**
 * Sends a task status another instance published (`task` in wire form) to this instance's listen
 * streams whose `taskIds` name it and whose client is `owner`.
 */
export function deliverTaskStatus(
  listeners: ReadonlySet<Listener>,
  task: Record<string, unknown>,
  owner: string | undefined,
): void {
  const taskId = task.taskId as string;
  for (const listener of listeners) {
    if (listener.owner === owner && listener.filter.taskIds?.includes(taskId)) {
      listener.send("notifications/tasks", task);
    }
  }
}

/**
 * Records in the task store how a task's handler ended, when `running` settles: a tool result
 * (`completed`, an `isError` one too), a protocol error (`failed`), or nothing after `tasks/cancel`.
 * Never rejects: a store that cannot record the outcome is reported to the logger.
 */
export function runTask(core: ServerCore, tool: ToolEntry, taskId: string, running: Promise<unknown>): void {
  const manager = core.taskManager;
  running
    .then(
      async (value) => {
        const result = await finishToolResult(core, tool, "modern", value as ToolReturn);
        return { result: { ...result, resultType: "complete" } };
      },
      (error: unknown) => {
        if (error instanceof TaskCancelledError) return undefined;
        if (error instanceof JsonRpcError) return { error: taskErrorObject(error) };
        return { result: { ...toolErrorResult(error), resultType: "complete" } };
      },
    )
    .catch((error: unknown) => ({ error: taskErrorObject(error) }))
    .then((outcome) => (outcome === undefined ? undefined : manager.finish(taskId, outcome)))
    .catch((error: unknown) => core.logger.error(`Task ${taskId} could not be finished`, error));
}

/**
 * The owner a task is bound to: the first of `subject`, `sub`, `clientId` in the transport's auth info
 * (as `key:value`), or `undefined` for an unauthenticated client.
 */
export function ownerOf(authInfo: unknown): string | undefined {
  if (!isObject(authInfo)) return undefined;
  for (const key of ["subject", "sub", "clientId"]) {
    if (typeof authInfo[key] === "string") return `${key}:${authInfo[key]}`;
  }
  return undefined;
}

function taskErrorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof JsonRpcError) return error.toJSON();
  return { code: McpErrorCode.InternalError, message: "Internal error" };
}
