import type { NotificationParams, PaginatedResult, Result } from "./base.js";
import type { TaskStatus } from "./tasks.js";

// Experimental tasks of 2025-11-25 (core, requestor-driven, either direction). Replaced in 2026-07-28 by
// the tasks extension (see `tasks.ts`); these shapes are for legacy sessions only.
// @see SPEC.md §4.7

/** `params.task` of a task-augmented request: ask the receiver to run it as a task. */
export interface LegacyTaskMetadata {
  /** Requested lifetime in ms. */
  ttl?: number;
}

/** `_meta["io.modelcontextprotocol/related-task"]` on messages that belong to a task. */
export interface RelatedTaskMetadata {
  taskId: string;
}

/** A 2025-11-25 task. Note `ttl`/`pollInterval`, where the extension says `ttlMs`/`pollIntervalMs`. */
export interface LegacyTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Lifetime in ms from creation; `null` means unlimited. */
  ttl: number | null;
  pollInterval?: number;
}

/** The answer to a task-augmented request: the task, nested under `task`. */
export interface LegacyCreateTaskResult extends Result {
  task: LegacyTask;
}

/** Result of 2025-11-25 `tasks/get`: the task itself. */
export type LegacyGetTaskResult = Result & LegacyTask;

/** Result of 2025-11-25 `tasks/cancel`. A terminal task cannot be cancelled (-32602). */
export type LegacyCancelTaskResult = Result & LegacyTask;

/**
 * Result of `tasks/result`: exactly the underlying request's result, with
 * `_meta["io.modelcontextprotocol/related-task"]`.
 */
export interface LegacyGetTaskPayloadResult extends Result {
  [key: string]: unknown;
}

/** Result of `tasks/list` (2025-11-25 only). */
export interface LegacyListTasksResult extends PaginatedResult {
  tasks: LegacyTask[];
}

/** Params of `notifications/tasks/status` (2025-11-25 only). */
export type LegacyTaskStatusNotificationParams = NotificationParams & LegacyTask;
