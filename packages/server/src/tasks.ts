import {
  type ClientCapabilities,
  type ErrorObject,
  type InputRequest,
  type InputRequests,
  TASKS_EXTENSION_ID,
  type Task,
  type TaskStatus,
} from "@mcpkit/protocol";
import { randomId } from "./internal/encoding.js";

/** Where a client declares the tasks extension in its capabilities (hoisted: checked on every modern call). */
export const TASKS_CAPABILITY_PATH: readonly string[] = ["extensions", TASKS_EXTENSION_ID];

/** The client capability a task method needs, as the missing-capability error names it. */
export const TASKS_REQUIRED: ClientCapabilities = { extensions: { [TASKS_EXTENSION_ID]: {} } };

/**
 * One task record of the tasks extension (`io.modelcontextprotocol/tasks`), as a {@link TaskStore} keeps
 * it: the wire `DetailedTask` fields plus `owner`, the authorization subject it is bound to.
 * @see SPEC.md §3.13
 */
export interface StoredTask extends Task {
  /** Pending input requests, while `status` is `input_required`. */
  inputRequests?: InputRequests;
  /** The tool result, once `completed` (an `isError` result is `completed` too). */
  result?: Record<string, unknown>;
  /** The JSON-RPC error, once `failed`. */
  error?: ErrorObject;
  /** The authorization subject that created the task; other subjects cannot see it. */
  owner?: string;
}

/**
 * A message for the instance running a task, from an instance that received a request about it:
 * `tasks/cancel` (`cancel`: abort the handler's `ctx.signal`) or `tasks/update` (`input`: hand the
 * handler the client's `inputResponses`).
 */
export type TaskSignal =
  | { type: "cancel"; taskId: string }
  | { type: "input"; taskId: string; responses: Record<string, unknown> };

/**
 * How instances sharing a {@link TaskStore} reach the handler of a task that runs on another one. A task's
 * handler always runs in the process that created the task; when `tasks/cancel` or `tasks/update`
 * arrives at an instance that does not run it, the task manager publishes a {@link TaskSignal} here, and
 * every instance's manager hears it and acts on it if it runs that task. At most once, in no guaranteed
 * time: a signal sent while the running instance is gone is lost (a lease, kept by the store, fails such
 * a task).
 */
export interface TaskSignals {
  /** Sends `signal` to every instance (this one included). Resolves once it is sent. */
  publish(signal: TaskSignal): void | Promise<void>;
  /**
   * Starts delivering every instance's signals to `listener`; resolves once signals published after it
   * will be heard. The task manager subscribes once, before its first task is announced; the store owner
   * ends the subscription by closing the store.
   */
  subscribe(listener: (signal: TaskSignal) => void): void | Promise<void>;
}

/**
 * Where task records live. The in-memory default serves one process; a shared implementation (Redis, a
 * database) lets any instance answer `tasks/get`. Records are replaced whole on every change. The running
 * handler itself always stays in the process that started it: `create` is called by that process.
 */
export interface TaskStore {
  /** Stores a new record; must be durable when the promise resolves (the client is told right after). */
  create(task: StoredTask): void | Promise<void>;
  /** The record, or `undefined` when unknown or expired. */
  get(taskId: string): StoredTask | undefined | Promise<StoredTask | undefined>;
  /**
   * Replaces a record. A store shared by instances must never replace a terminal record (`completed`,
   * `failed`, `cancelled`): two instances may race, and the first final word stands.
   */
  update(task: StoredTask): void | Promise<void>;
  /**
   * Cross-instance delivery of cancels and input answers; only a store shared by several instances has
   * it (the in-memory store does not: every task runs in its one process).
   */
  readonly signals?: TaskSignals;
}

/**
 * A {@link TaskStore} in this process's memory. Records expire `ttlMs` after creation and are dropped
 * on the next access after that; at most `maxTasks` are kept (the oldest go first).
 */
export function createInMemoryTaskStore(options: { maxTasks?: number } = {}): TaskStore {
  const maxTasks = options.maxTasks ?? 10_000;
  const tasks = new Map<string, StoredTask>();
  const expired = (task: StoredTask) =>
    task.ttlMs !== null && Date.parse(task.createdAt) + task.ttlMs < Date.now();
  return {
    create(task) {
      tasks.set(task.taskId, structuredClone(task));
      while (tasks.size > maxTasks) {
        const oldest = tasks.keys().next().value;
        if (oldest === undefined) break;
        tasks.delete(oldest);
      }
    },
    get(taskId) {
      const task = tasks.get(taskId);
      if (task === undefined) return undefined;
      if (expired(task)) {
        tasks.delete(taskId);
        return undefined;
      }
      return structuredClone(task);
    },
    update(task) {
      if (tasks.has(task.taskId)) tasks.set(task.taskId, structuredClone(task));
    },
  };
}

/** The local error a task's handler sees on `ctx.signal` when `tasks/cancel` arrived. */
export class TaskCancelledError extends Error {
  override name = "TaskCancelledError";
  constructor(taskId: string) {
    super(`Task ${taskId} was cancelled`);
  }
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Running {
  controller: AbortController;
  waiters: Map<string, Waiter>;
  usedKeys: Set<string>;
  counters: Map<string, number>;
  /** Serializes record writes of this task. */
  queue: Promise<void>;
}

/** Runs tasks in this process over a {@link TaskStore}. Internal to the server. */
export class TaskManager {
  private readonly running = new Map<string, Running>();
  /** Settles once this manager hears the store's signals (made before the first task is announced). */
  private listening: Promise<void> | undefined;

  constructor(
    readonly store: TaskStore,
    private readonly ttlMs: number,
    private readonly pollIntervalMs: number,
    private readonly onChange: (task: StoredTask) => void,
    private readonly onError: (message: string, error: unknown) => void,
  ) {}

  /** Creates a `working` task, durably, and returns its record. */
  async create(owner: string | undefined): Promise<{ task: StoredTask; signal: AbortSignal }> {
    const now = new Date().toISOString();
    const task: StoredTask = {
      taskId: randomId(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    if (owner !== undefined) task.owner = owner;
    const signals = this.store.signals;
    if (signals !== undefined) {
      // A cancel sent from another instance right after the client learns the task id must be heard.
      this.listening ??= Promise.resolve(signals.subscribe((signal) => this.onSignal(signal))).catch(
        (error: unknown) => {
          // Not heard yet (Redis down?): this task fails to start, the next one tries again.
          this.listening = undefined;
          throw error;
        },
      );
      await this.listening;
    }
    await this.store.create(task);
    const controller = new AbortController();
    this.running.set(task.taskId, {
      controller,
      waiters: new Map(),
      usedKeys: new Set(),
      counters: new Map(),
      queue: Promise.resolve(),
    });
    return { task, signal: controller.signal };
  }

  /** The record if it exists and `owner` may see it. */
  async get(taskId: string, owner: string | undefined): Promise<StoredTask | undefined> {
    const task = await this.store.get(taskId);
    if (task === undefined || task.owner !== owner) return undefined;
    return task;
  }

  private mutate(taskId: string, change: (task: StoredTask) => boolean): Promise<void> {
    const run = this.running.get(taskId);
    const apply = async () => {
      const task = await this.store.get(taskId);
      if (task === undefined || !change(task)) return;
      task.lastUpdatedAt = new Date().toISOString();
      await this.store.update(task);
      this.onChange(task);
    };
    if (!run) return apply();
    const next = run.queue.then(apply, apply);
    run.queue = next.catch((error: unknown) => this.onError("Task store update failed", error));
    return next;
  }

  /**
   * Asks the client for input on behalf of a running task: the task goes `input_required` with this
   * request listed until `tasks/update` answers it.
   */
  requestInput(
    taskId: string,
    kind: string,
    request: InputRequest,
    key: string | undefined,
  ): Promise<unknown> {
    const run = this.running.get(taskId);
    if (!run) return Promise.reject(new Error(`Task ${taskId} is not running`));
    let chosen = key;
    if (chosen === undefined || run.usedKeys.has(chosen)) {
      // Keys are unique over the task's lifetime, so a repeated key gets a fresh suffix.
      const base = chosen ?? kind;
      let n = run.counters.get(base) ?? 0;
      do chosen = `${base}-${n++}`;
      while (run.usedKeys.has(chosen));
      run.counters.set(base, n);
    }
    const inputKey = chosen;
    run.usedKeys.add(inputKey);
    const answer = new Promise<unknown>((resolve, reject) => run.waiters.set(inputKey, { resolve, reject }));
    void this.mutate(taskId, (task) => {
      if (isTerminal(task.status)) return false;
      task.inputRequests = { ...(task.inputRequests ?? {}), [inputKey]: request };
      task.status = "input_required";
      return true;
    });
    return answer;
  }

  /**
   * Delivers `tasks/update` answers; unknown or already answered keys are ignored. For a task that runs
   * on another instance, the answers go to it as a signal (it updates the record when its handler has
   * them).
   */
  async update(taskId: string, responses: Record<string, unknown>): Promise<void> {
    const run = this.running.get(taskId);
    if (!run) {
      await this.store.signals?.publish({ type: "input", taskId, responses });
      return;
    }
    const answered: string[] = [];
    for (const [key, value] of Object.entries(responses)) {
      const waiter = run.waiters.get(key);
      if (!waiter) continue;
      run.waiters.delete(key);
      answered.push(key);
      waiter.resolve(value);
    }
    if (answered.length === 0) return;
    await this.mutate(taskId, (task) => {
      if (isTerminal(task.status) || !task.inputRequests) return false;
      for (const key of answered) delete task.inputRequests[key];
      if (Object.keys(task.inputRequests).length === 0) {
        delete task.inputRequests;
        task.status = "working";
      }
      return true;
    });
  }

  /**
   * Cooperative cancel: the task becomes `cancelled` now and its handler's signal aborts, here or, through
   * the store's signals, on the instance that runs it.
   */
  async cancel(taskId: string): Promise<void> {
    await this.mutate(taskId, (task) => {
      if (isTerminal(task.status)) return false;
      task.status = "cancelled";
      delete task.inputRequests;
      return true;
    });
    if (this.running.has(taskId)) this.abort(taskId);
    else await this.store.signals?.publish({ type: "cancel", taskId });
  }

  /** Aborts the handler of a task run here (its record already says `cancelled`). */
  private abort(taskId: string): void {
    const run = this.running.get(taskId);
    if (!run) return;
    this.running.delete(taskId);
    const reason = new TaskCancelledError(taskId);
    run.controller.abort(reason);
    for (const waiter of run.waiters.values()) waiter.reject(reason);
    run.waiters.clear();
  }

  /** A signal from another instance; only the instance running the task acts on it. */
  private onSignal(signal: TaskSignal): void {
    if (!this.running.has(signal.taskId)) return;
    if (signal.type === "cancel") this.abort(signal.taskId);
    else
      this.update(signal.taskId, signal.responses).catch((error: unknown) =>
        this.onError("Task input from another instance could not be delivered", error),
      );
  }

  /** Records the handler's outcome; ignored when the task was cancelled meanwhile. */
  async finish(
    taskId: string,
    outcome: { result: Record<string, unknown> } | { error: ErrorObject },
  ): Promise<void> {
    await this.mutate(taskId, (task) => {
      if (isTerminal(task.status)) return false;
      delete task.inputRequests;
      if ("result" in outcome) {
        task.status = "completed";
        task.result = outcome.result;
      } else {
        task.status = "failed";
        task.error = outcome.error;
      }
      return true;
    });
    const run = this.running.get(taskId);
    if (run) {
      this.running.delete(taskId);
      for (const waiter of run.waiters.values()) waiter.reject(new Error(`Task ${taskId} has finished`));
    }
  }
}

/** Whether a status is final. */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** The wire form of a record: `DetailedTask` without `owner`. */
export function wireTask(task: StoredTask): Record<string, unknown> {
  const { owner: _owner, ...rest } = task;
  return rest;
}
