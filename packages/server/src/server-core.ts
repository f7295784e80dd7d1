import { type Implementation, McpError, McpErrorCode } from "@mcpkit/protocol";
import { BusLink } from "./bus-link.js";
import { ChangeNotifier } from "./change-notifier.js";
import type { Conn } from "./connection.js";
import { Registry } from "./internal/registry.js";
import { RequestStateSealer } from "./internal/request-state.js";
import { SchemaCompiler } from "./internal/schema.js";
import type { Listener } from "./listen.js";
import type { ModernObservation } from "./modern-observation.js";
import { requestLimitOf } from "./request-limit.js";
import { SkillRegistry } from "./skills.js";
import { publishTask } from "./task-publication.js";
import { createInMemoryTaskStore, TaskManager, type TaskStore } from "./tasks.js";
import type { ServerLogger, ServerOptions, ServerStores } from "./types.js";

/**
 * What every part of one server shares: the options, the registry, the `requestState` sealer, the open
 * connections and `subscriptions/listen` streams, the change fan-out and (made on first use) the task
 * manager. Built once by `createServer`; the method handlers receive it instead of a server object.
 */
export class ServerCore {
  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly logger: ServerLogger;
  readonly registry: Registry;
  /** The skills served (Skills extension); their files are resources of {@link registry}. */
  readonly skills: SkillRegistry;
  sealer: RequestStateSealer;
  readonly pageSize: number;
  /** `options.maxConcurrentRequestsPerConnection`, checked, or its default. */
  readonly maxRequestsPerConnection: number;
  readonly ttlMs: number;
  readonly cacheScope: "public" | "private";
  /** Open connections (legacy sessions and carriers of modern requests). */
  readonly connections = new Set<Conn>();
  /** Open `subscriptions/listen` streams. */
  readonly listeners = new Set<Listener>();
  /** Tells connections and listeners which lists changed. */
  changes: ChangeNotifier;
  /**
   * This server's end of `options.bus` (or of the bus given to {@link useStores}); undefined without one
   * (then nothing leaves the process).
   */
  bus: BusLink | undefined;
  /** Set once by `Server.close()`. */
  isClosed = false;
  /** Set by the first `connect` or `handle`: from then on the stores are fixed (see {@link useStores}). */
  connectedOnce = false;
  /** How `Server.handle`'s requests are observed: made by the first one, once telemetry is resolved. */
  modernObservation: ModernObservation | undefined;
  private taskStore: TaskStore | undefined;
  private taskManagerInstance: TaskManager | undefined;

  /**
   * @throws TypeError when `name` or `version` is missing; RangeError for a `pageSize` below 1 or a
   * `maxConcurrentRequestsPerConnection` that is not a whole number of at least 1.
   */
  constructor(options: ServerOptions) {
    if (typeof options?.name !== "string" || typeof options.version !== "string") {
      throw new TypeError("createServer needs { name, version }");
    }
    this.options = options;
    const info: Implementation = { name: options.name, version: options.version };
    if (options.title !== undefined) info.title = options.title;
    if (options.description !== undefined) info.description = options.description;
    if (options.websiteUrl !== undefined) info.websiteUrl = options.websiteUrl;
    if (options.icons !== undefined) info.icons = options.icons;
    this.info = info;
    this.logger = options.logger ?? {
      // A message without a detail is printed alone (console.error would print a stray "undefined").
      error: (message, error) =>
        error === undefined
          ? console.error(`[mcpkit/server] ${message}`)
          : console.error(`[mcpkit/server] ${message}`, error),
    };
    this.pageSize = options.pageSize ?? 100;
    if (!(this.pageSize >= 1))
      throw new RangeError(`pageSize must be at least 1, got ${String(options.pageSize)}`);
    this.maxRequestsPerConnection = requestLimitOf(options.maxConcurrentRequestsPerConnection);
    this.ttlMs = Math.max(0, Math.floor(options.cache?.ttlMs ?? 0));
    this.cacheScope = options.cache?.scope ?? "public";
    this.bus = options.bus === undefined ? undefined : new BusLink(options.bus, this);
    this.changes = new ChangeNotifier(this.connections, this.listeners, this.bus);
    // The one place the schema compiler is made: a validator chosen in the options is handed over here.
    const compiler = new SchemaCompiler(options.toJsonSchema, options.validator);
    this.registry = new Registry(compiler, (kind) => this.changes.schedule(kind));
    this.skills = new SkillRegistry(this.registry, options.skills);
    this.sealer = new RequestStateSealer(options.requestStateKey, options.requestStateTtlMs ?? 600_000);
    this.taskStore = options.tasks?.store;
  }

  /**
   * Replaces the stores the options gave (see `Server.useStores`); an undefined entry keeps its own.
   * @throws Error once a connection was made or the server closed; RangeError for an empty key ring.
   */
  useStores(stores: ServerStores): void {
    if (this.connectedOnce || this.isClosed) {
      throw new Error(
        "Server.useStores() must be called before the server serves anything (a connection was already made)",
      );
    }
    // Built first: a bad ring throws before anything changed.
    const sealer =
      stores.requestStateKey === undefined
        ? undefined
        : new RequestStateSealer(stores.requestStateKey, this.options.requestStateTtlMs ?? 600_000);
    if (sealer !== undefined) this.sealer = sealer;
    if (stores.tasks !== undefined) {
      this.taskStore = stores.tasks;
      // Nothing used the manager before a connection, but a getter may have built it: rebuild on use.
      this.taskManagerInstance = undefined;
    }
    if (stores.bus !== undefined) {
      this.bus?.detach();
      this.bus = new BusLink(stores.bus, this);
      this.changes = new ChangeNotifier(this.connections, this.listeners, this.bus);
    }
  }

  /** Whether the tasks extension is offered: a tool declared `taskSupport`, or the options configure it. */
  get tasksEnabled(): boolean {
    return this.registry.declared.tasks || this.options.tasks !== undefined;
  }

  /** The task manager, made on first use (a server without tasks never builds a store). */
  get taskManager(): TaskManager {
    this.taskManagerInstance ??= new TaskManager(
      this.taskStore ?? createInMemoryTaskStore(),
      this.options.tasks?.ttlMs ?? 3_600_000,
      this.options.tasks?.pollIntervalMs ?? 1_000,
      (task) => publishTask(this.listeners, task, this.bus),
      (message, error) => this.logger.error(message, error),
    );
    return this.taskManagerInstance;
  }

  /** Adds the modern cache hints (`ttlMs`, `cacheScope`) to `result` and returns it. */
  cacheHints<T extends Record<string, unknown>>(result: T): T {
    (result as Record<string, unknown>).ttlMs = this.ttlMs;
    (result as Record<string, unknown>).cacheScope = this.cacheScope;
    return result;
  }

  /** Logs `detail` and returns the generic -32603 the client sees instead (no detail crosses the wire). */
  internalError(message: string, detail?: unknown): McpError {
    this.logger.error(message, detail);
    return new McpError(McpErrorCode.InternalError, "Internal error");
  }

  /** The `onError` of every connection's peer: one function shared by all of them. */
  readonly reportUnexpected = (error: Error): void =>
    this.logger.error("Unexpected failure while serving a request", error);
}
