import { sleep } from "@mcpkit/jsonrpc";
import { type DetailedTask, McpError } from "@mcpkit/protocol";
import { InvalidResultError, TaskCancelledError } from "./errors.js";
import type { InputHandlers } from "./input.js";
import { fulfil, inputSignal } from "./input-answers.js";
import { isObject } from "./internal/util.js";
import { type Next, Outbound } from "./links/link.js";
import type { AwaitTaskOptions } from "./options.js";
import type { Session } from "./session.js";

/** Polling bounds: never faster than 10 ms, never slower than 30 s, 1 s when the server names no interval. */
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 30_000;
const DEFAULT_POLL_MS = 1000;

/**
 * Awaits a task of the tasks extension (2026-07-28): polls `tasks/get` at the server's `pollIntervalMs`,
 * answers its input requests with the handlers through `tasks/update` (each key once over the task's
 * life, however often a poll repeats it), and ends with the task's result.
 */
export class TaskPoller {
  readonly #handlers: InputHandlers;
  readonly #lifetime: AbortSignal;
  readonly #onError: (error: unknown) => void;

  constructor(handlers: InputHandlers, lifetime: AbortSignal, onError: (error: unknown) => void) {
    this.#handlers = handlers;
    this.#lifetime = lifetime;
    this.#onError = onError;
  }

  /**
   * Polls until the task ends, through `send` (the request chain), and resolves with its result. Its polls
   * carry `operation` (the token of the call that created the task, so telemetry links them to its span).
   * @throws McpError when the task failed; TaskCancelledError when it was cancelled; `signal.reason`
   *   when the call was aborted (or the client closed) between polls.
   */
  async poll(
    send: Next,
    s: Session,
    taskId: string,
    call: AwaitTaskOptions | undefined,
    operation?: object,
  ): Promise<Record<string, unknown>> {
    const linked = inputSignal(call, this.#lifetime);
    const request = (method: string, params: Record<string, unknown>): Promise<unknown> => {
      const op = new Outbound(s, method, params, call);
      op.operation = operation;
      return send(op);
    };
    try {
      return await this.#pollUntilDone(request, s, taskId, call, linked.signal);
    } finally {
      linked.unlink();
    }
  }

  async #pollUntilDone(
    request: (method: string, params: Record<string, unknown>) => Promise<unknown>,
    s: Session,
    taskId: string,
    call: AwaitTaskOptions | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const answered = new Set<string>();
    for (;;) {
      const task = (await request("tasks/get", { taskId })) as DetailedTask;
      if (!isObject(task) || typeof task.status !== "string") {
        throw new InvalidResultError("tasks/get", "tasks/get returned no task");
      }
      try {
        call?.onStatus?.(task);
      } catch (error) {
        this.#onError(error);
      }
      switch (task.status) {
        case "completed":
          return isObject(task.result) ? task.result : {};
        case "failed":
          throw McpError.fromWire(task.error);
        case "cancelled":
          throw new TaskCancelledError(taskId, task.statusMessage);
        case "input_required": {
          const requests = isObject(task.inputRequests) ? task.inputRequests : {};
          // Keys are unique over the task's life: answer each once, however often a poll repeats it.
          const responses = await fulfil(this.#handlers, s, requests, signal, (key) => !answered.has(key));
          const keys = Object.keys(responses);
          if (keys.length > 0) {
            const update = { taskId, inputResponses: responses };
            await request("tasks/update", update);
            for (const key of keys) answered.add(key);
            continue;
          }
          break;
        }
      }
      const interval = typeof task.pollIntervalMs === "number" ? task.pollIntervalMs : DEFAULT_POLL_MS;
      await sleep(Math.min(Math.max(interval, MIN_POLL_MS), MAX_POLL_MS), signal);
    }
  }
}
