import type { ErrorObject, NotificationParams, RequestParams, ResultMeta } from "./base.js";
import type { InputRequests, InputResponses } from "./mrtr.js";

// Tasks extension (`io.modelcontextprotocol/tasks`, used with 2026-07-28): a `tools/call` the server chose
// to run durably, polled with `tasks/get`. The 2025-11-25 core tasks are different; see `legacy-tasks.ts`.
// @see SPEC.md §3.13

/** Where a task is in its life. `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/**
 * The settings object of the tasks extension in `capabilities.extensions`: always empty.
 */
export type TasksExtensionCapability = Record<string, never>;

/** The state common to every task. */
export interface Task {
  /** Unguessable id chosen by the server. */
  taskId: string;
  status: TaskStatus;
  /** Human-readable detail of the current status. */
  statusMessage?: string;
  /** ISO 8601 creation time. */
  createdAt: string;
  /** ISO 8601 time of the last status change. */
  lastUpdatedAt: string;
  /** How long the server keeps the task after creation, in ms; `null` means unlimited. */
  ttlMs: number | null;
  /** Suggested polling interval in ms. */
  pollIntervalMs?: number;
}

/** A task still running. */
export interface WorkingTask extends Task {
  status: "working";
}

/**
 * A task waiting for client input. Keys of `inputRequests` are unique over the task's lifetime; clients
 * dedupe across polls and answer with `tasks/update`.
 */
export interface InputRequiredTask extends Task {
  status: "input_required";
  inputRequests: InputRequests;
}

/**
 * A finished task with the original request's result. A tool result with `isError: true` is `completed`
 * here (2025-11-25 tasks called it `failed`).
 */
export interface CompletedTask extends Task {
  status: "completed";
  result: Record<string, unknown>;
}

/** A task that ended with a JSON-RPC error. */
export interface FailedTask extends Task {
  status: "failed";
  error: ErrorObject;
}

/** A task cancelled by `tasks/cancel` (cooperatively). */
export interface CancelledTask extends Task {
  status: "cancelled";
}

/** A task with the detail its status implies. */
export type DetailedTask = WorkingTask | InputRequiredTask | CompletedTask | FailedTask | CancelledTask;

/**
 * The answer to a `tools/call` that became a task. The server must have created the task durably before
 * sending it, and only to a client that declared the extension on that request.
 */
export interface CreateTaskResult extends Task {
  resultType: "task";
  _meta?: ResultMeta;
}

/** Params of `tasks/get`, `tasks/cancel` (both task designs). */
export interface TaskIdRequestParams extends RequestParams {
  taskId: string;
}

/** Params of `tasks/get`. An unknown or expired id is -32602. */
export type GetTaskRequestParams = TaskIdRequestParams;

/** Result of `tasks/get`: the detailed task, with `resultType: "complete"`. */
export type GetTaskResult = DetailedTask & { resultType: "complete"; _meta?: ResultMeta };

/**
 * Params of `tasks/update`: answers to some or all of the task's input requests. Unknown or already
 * answered keys are ignored.
 */
export interface UpdateTaskRequestParams extends RequestParams {
  taskId: string;
  inputResponses: InputResponses;
}

/** Result of `tasks/update`: an empty acknowledgement; the update applies eventually. */
export interface UpdateTaskResult {
  resultType: "complete";
  _meta?: ResultMeta;
}

/** Params of `tasks/cancel`. `notifications/cancelled` must not be used for tasks. */
export type CancelTaskRequestParams = TaskIdRequestParams;

/** Result of `tasks/cancel`: an empty acknowledgement; cancellation is cooperative. */
export interface CancelTaskResult {
  resultType: "complete";
  _meta?: ResultMeta;
}

/** Params of `notifications/tasks`: the full detailed task, pushed on a listen stream filtered by `taskIds`. */
export type TaskStatusNotificationParams = NotificationParams & DetailedTask;
