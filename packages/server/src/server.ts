import {
  createPeer,
  JsonRpcError,
  type JsonRpcId,
  type Peer,
  type RequestContext,
  type Transport,
} from "@mcpkit/jsonrpc";
import {
  allowsBatches,
  type ClientCapabilities,
  hasCapability,
  type Implementation,
  isLegacyVersion,
  isLoggingLevel,
  isModernVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  type LoggingLevel,
  McpError,
  McpErrorCode,
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  type ProtocolEra,
  type RequestMeta,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
  TASKS_EXTENSION_ID,
} from "@mcpkit/protocol";
import { type Attempt, type CallInfo, Context, InputRequiredSignal } from "./internal/context.js";
import { decodeCursor, encodeCursor } from "./internal/cursor.js";
import { headersOf, paramHeaderProblem } from "./internal/param-headers.js";
import { type ListKind, Registry, type ToolEntry } from "./internal/registry.js";
import { RequestStateSealer } from "./internal/request-state.js";
import { toolErrorResult, toPromptResult, toResourceContents, toToolResult } from "./internal/results.js";
import { type Checked, SchemaCompiler } from "./internal/schema.js";
import {
  createInMemoryTaskStore,
  type StoredTask,
  TaskCancelledError,
  TaskManager,
  wireTask,
} from "./tasks.js";
import type {
  ArgsOf,
  PromptConfig,
  PromptHandler,
  Registered,
  ResourceConfig,
  ResourceHandler,
  ResourceTemplateConfig,
  ResourceTemplateHandler,
  SchemaBoundHandler,
  SchemaInput,
  ServerLogger,
  ServerOptions,
  ToolConfig,
  ToolHandler,
  ToolReturn,
} from "./types.js";

/** One connection of a {@link Server}: a legacy session, or a carrier of modern requests. */
export interface ServerConnection {
  /** `legacy` once the client sent `initialize`; `modern` once it sent a 2026-07-28 request; else undefined. */
  readonly era: ProtocolEra | undefined;
  /** The negotiated version of a legacy session. */
  readonly protocolVersion: string | undefined;
  /** Closes this connection and its transport. */
  close(): Promise<void>;
  /** Resolves when the connection has closed. */
  readonly closed: Promise<void>;
}

/**
 * An MCP server: a registry of tools, resources, templates and prompts, built once and shared by every
 * connection, answering both protocol eras. Registration may happen before or after `connect`; clients of
 * either era are told when a list changes.
 */
export interface Server {
  readonly info: Implementation;
  /**
   * Registers a tool. The input schema (JSON Schema or Standard Schema) is converted and compiled now;
   * invalid arguments come back as an `isError` result, and a throw from the handler too.
   * @throws TypeError for a duplicate or malformed name, or a schema that cannot be compiled.
   */
  registerTool<S extends SchemaInput>(
    name: string,
    config: Omit<ToolConfig<undefined>, "inputSchema">,
    handler: SchemaBoundHandler<S>,
  ): Registered;
  registerTool<S extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<S>,
    handler: ToolHandler<ArgsOf<S>>,
  ): Registered;
  /** Registers a static resource (`mimeType` defaults to `text/plain`). */
  registerResource(uri: string, config: ResourceConfig, handler: ResourceHandler): Registered;
  /** Registers an RFC 6570 URI template such as `file://{path}`; its handler gets the variables. */
  registerResourceTemplate(
    uriTemplate: string,
    config: ResourceTemplateConfig,
    handler: ResourceTemplateHandler,
  ): Registered;
  /** Registers a prompt; its arguments come from `arguments` or from `argsSchema`. */
  registerPrompt<S extends SchemaInput | undefined = undefined>(
    name: string,
    config: PromptConfig<S>,
    handler: PromptHandler<S extends undefined ? Record<string, string> : ArgsOf<S>>,
  ): Registered;
  /**
   * Serves one transport: a stdio pipe, a legacy HTTP session, or a one-shot modern HTTP request. Cheap:
   * it creates a JSON-RPC peer and a small state object; nothing of the registry is rebuilt.
   * @throws Error after {@link Server.close}.
   */
  connect(transport: Transport): Promise<ServerConnection>;
  /** Tells subscribers of `uri` (legacy `resources/subscribe`, modern listen filters) that it changed. */
  notifyResourceUpdated(uri: string): void;
  /** Tells clients a list changed without a registration (e.g. a tool's description depends on state). */
  notifyListChanged(kind: ListKind): void;
  /** Connections currently open. */
  readonly connectionCount: number;
  /**
   * Ends every `subscriptions/listen` stream with its graceful result, then closes every connection.
   * Idempotent.
   */
  close(): Promise<void>;
}

/** A legacy session's state (after `initialize`). */
interface Session {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  initialized: boolean;
  logLevel: LoggingLevel | undefined;
  subscriptions: Set<string>;
}

interface Conn {
  peer: Peer;
  session: Session | undefined;
  era: ProtocolEra | undefined;
}

interface Listener {
  filter: {
    toolsListChanged?: boolean;
    promptsListChanged?: boolean;
    resourcesListChanged?: boolean;
    resourceSubscriptions?: string[];
    taskIds?: string[];
  };
  send(method: string, params: Record<string, unknown>): void;
  end(): void;
}

type Params = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const BAD_REQUEST = { httpStatus: 400 };

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null &&
  (typeof v === "object" || typeof v === "function") &&
  typeof (v as PromiseLike<unknown>).then === "function";

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/** The handler of `notifications/initialized` for one connection. */
function markInitialized(conn: Conn): () => void {
  return () => {
    if (conn.session) conn.session.initialized = true;
  };
}

/** What `connect` returns: a view of one connection (its `closed` promise is made on first use). */
class Connection implements ServerConnection {
  private closedPromise: Promise<void> | undefined;
  constructor(private readonly conn: Conn) {}
  get era(): ProtocolEra | undefined {
    return this.conn.era;
  }
  get protocolVersion(): string | undefined {
    return this.conn.session?.protocolVersion;
  }
  close(): Promise<void> {
    return this.conn.peer.close();
  }
  get closed(): Promise<void> {
    this.closedPromise ??= this.conn.peer.closed.then(() => {});
    return this.closedPromise;
  }
}

/** What `openAttempt` gives: the MRTR bookkeeping and the state values sealed by an earlier attempt. */
interface OpenedAttempt {
  attempt: Attempt;
  values: Record<string, unknown> | undefined;
}

function newAttempt(
  opened: { answers: Record<string, unknown>; values: Record<string, unknown> } | undefined,
  responses: Record<string, unknown> | undefined,
): OpenedAttempt {
  const answers = opened ? { ...opened.answers, ...responses } : { ...responses };
  return { attempt: { answers, consumed: {}, pending: {}, counters: undefined }, values: opened?.values };
}
// Hoisted: tools/call checks it on every modern call.
const TASKS_CAPABILITY_PATH = ["extensions", TASKS_EXTENSION_ID];
const TASKS_REQUIRED: ClientCapabilities = { extensions: { [TASKS_EXTENSION_ID]: {} } };

function satisfies(have: ClientCapabilities, need: ClientCapabilities, path: string[] = []): boolean {
  for (const [key, value] of Object.entries(need)) {
    const here = [...path, key];
    if (!hasCapability(have, here)) return false;
    if (
      isObject(value) &&
      Object.keys(value).length > 0 &&
      !satisfies(have, value as ClientCapabilities, here)
    ) {
      return false;
    }
  }
  return true;
}

function ownerOf(authInfo: unknown): string | undefined {
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

class ServerImpl implements Server {
  readonly info: Implementation;
  private readonly options: ServerOptions;
  private readonly logger: ServerLogger;
  private readonly registry: Registry;
  private readonly sealer: RequestStateSealer;
  private readonly pageSize: number;
  private readonly ttlMs: number;
  private readonly cacheScope: "public" | "private";
  private taskManagerInstance: TaskManager | undefined;
  private readonly connections = new Set<Conn>();
  private readonly listeners = new Set<Listener>();
  private readonly pendingChanges = new Set<ListKind>();
  private isClosed = false;

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
      error: (message, error) => console.error(`[mcpkit/server] ${message}`, error),
    };
    this.pageSize = options.pageSize ?? 100;
    if (!(this.pageSize >= 1))
      throw new RangeError(`pageSize must be at least 1, got ${String(options.pageSize)}`);
    this.ttlMs = Math.max(0, Math.floor(options.cache?.ttlMs ?? 0));
    this.cacheScope = options.cache?.scope ?? "public";
    this.registry = new Registry(new SchemaCompiler(options.toJsonSchema), (kind) =>
      this.scheduleChange(kind),
    );
    this.sealer = new RequestStateSealer(options.requestStateKey, options.requestStateTtlMs ?? 600_000);
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  private get tasksEnabled(): boolean {
    return this.registry.declared.tasks || this.options.tasks !== undefined;
  }

  private get taskManager(): TaskManager {
    this.taskManagerInstance ??= new TaskManager(
      this.options.tasks?.store ?? createInMemoryTaskStore(),
      this.options.tasks?.ttlMs ?? 3_600_000,
      this.options.tasks?.pollIntervalMs ?? 1_000,
      (task) => this.publishTask(task),
      (message, error) => this.logger.error(message, error),
    );
    return this.taskManagerInstance;
  }

  // ---- registration -------------------------------------------------------------------------------

  registerTool(name: string, config: ToolConfig<any>, handler: ToolHandler<any>): Registered {
    return { remove: this.registry.addTool(name, config ?? {}, handler) };
  }

  registerResource(uri: string, config: ResourceConfig, handler: ResourceHandler): Registered {
    return { remove: this.registry.addResource(uri, config, handler) };
  }

  registerResourceTemplate(
    uriTemplate: string,
    config: ResourceTemplateConfig,
    handler: ResourceTemplateHandler,
  ): Registered {
    return { remove: this.registry.addTemplate(uriTemplate, config, handler) };
  }

  registerPrompt<S extends SchemaInput | undefined = undefined>(
    name: string,
    config: PromptConfig<S>,
    handler: PromptHandler<S extends undefined ? Record<string, string> : ArgsOf<S>>,
  ): Registered {
    return { remove: this.registry.addPrompt(name, config ?? {}, handler) };
  }

  // ---- change fan-out -----------------------------------------------------------------------------

  notifyListChanged(kind: ListKind): void {
    this.scheduleChange(kind);
  }

  private scheduleChange(kind: ListKind): void {
    if (this.connections.size === 0 && this.listeners.size === 0) return;
    // Changes made together (a burst of registrations) are told once.
    if (this.pendingChanges.size === 0) queueMicrotask(() => this.flushChanges());
    this.pendingChanges.add(kind);
  }

  private flushChanges(): void {
    const kinds = [...this.pendingChanges];
    this.pendingChanges.clear();
    for (const kind of kinds) {
      const method = `notifications/${kind}/list_changed`;
      for (const conn of this.connections) {
        if (conn.session?.initialized) conn.peer.notify(method).catch(() => {});
      }
      const flag = `${kind}ListChanged` as "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";
      for (const listener of this.listeners) if (listener.filter[flag]) listener.send(method, {});
    }
  }

  notifyResourceUpdated(uri: string): void {
    for (const conn of this.connections) {
      if (conn.session?.subscriptions.has(uri)) {
        conn.peer.notify("notifications/resources/updated", { uri }).catch(() => {});
      }
    }
    for (const listener of this.listeners) {
      if (listener.filter.resourceSubscriptions?.includes(uri)) {
        listener.send("notifications/resources/updated", { uri });
      }
    }
  }

  private publishTask(task: StoredTask): void {
    for (const listener of this.listeners) {
      if (listener.filter.taskIds?.includes(task.taskId))
        listener.send("notifications/tasks", wireTask(task));
    }
  }

  // ---- connections --------------------------------------------------------------------------------

  async connect(transport: Transport): Promise<ServerConnection> {
    if (this.isClosed) throw new Error("Server.connect() was called after close()");
    // A 2026-07-28 HTTP server connects once per request: this stays small (one peer, one handler).
    const conn: Conn = { peer: undefined as unknown as Peer, session: undefined, era: undefined };
    const peerOptions: Parameters<typeof createPeer>[1] = {
      // No batches until a session negotiates a revision that has them (see initialize).
      batches: false,
      onError: this.reportUnexpected,
      onClose: () => {
        this.connections.delete(conn);
      },
    };
    if (this.options.requestTimeout !== undefined) peerOptions.timeout = this.options.requestTimeout;
    const peer = createPeer(transport, peerOptions);
    conn.peer = peer;
    peer.onNotification("notifications/initialized", markInitialized(conn));
    peer.onAnyRequest((params, rctx) => {
      const outcome = this.dispatch(conn, params, rctx);
      if (!(outcome instanceof Promise)) return outcome;
      return outcome.catch((error: unknown) => {
        // The request's own stream closed (HTTP disconnect = cancellation): nobody can receive an answer,
        // and the abort is not a failure worth logging.
        if (rctx.aborted && !(error instanceof JsonRpcError)) {
          throw new McpError(McpErrorCode.InternalError, "Request cancelled");
        }
        throw error;
      });
    });
    this.connections.add(conn);
    try {
      await peer.start();
    } catch (error) {
      this.connections.delete(conn);
      throw error;
    }
    return new Connection(conn);
  }

  private readonly reportUnexpected = (error: Error): void =>
    this.logger.error("Unexpected failure while serving a request", error);

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const listener of [...this.listeners]) listener.end();
    // Let the graceful listen results reach their transports before the connections go.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([...this.connections].map((conn) => conn.peer.close()));
  }

  // ---- dispatch -----------------------------------------------------------------------------------

  private dispatch(conn: Conn, params: unknown, rctx: RequestContext): Promise<unknown> | unknown {
    const method = rctx.method;
    // MCP params are always an object (JSON-RPC would allow an array); so is `_meta` where present.
    if (params !== undefined && !isObject(params)) {
      throw McpError.invalidParams(`Invalid params: ${method} takes an object as params`, BAD_REQUEST);
    }
    const p: Params = params === undefined ? {} : (params as Params);
    const rawMeta = p._meta;
    if (rawMeta !== undefined && !isObject(rawMeta)) {
      throw McpError.invalidParams("Invalid params: params._meta must be an object", BAD_REQUEST);
    }
    const meta: RequestMeta = (rawMeta ?? {}) as RequestMeta;
    const version = meta[MetaKey.ProtocolVersion];
    if (method === "initialize" && !isModernVersion(version)) return this.initialize(conn, p);
    if (version !== undefined && (conn.session === undefined || isModernVersion(version))) {
      conn.era ??= "modern";
      return this.modern(method, p, meta, rctx);
    }
    if (conn.session) return this.legacy(conn.session, method, p, meta, rctx);
    if (method === "ping") return {};
    throw McpError.invalidParams(
      `Missing _meta["${MetaKey.ProtocolVersion}"]: send a 2026-07-28 request with _meta, or initialize first`,
      BAD_REQUEST,
    );
  }

  private initialize(conn: Conn, p: Params): Params {
    if (conn.session) throw new McpError(McpErrorCode.InvalidRequest, "The session is already initialized");
    const requested = p.protocolVersion;
    const protocolVersion = isLegacyVersion(requested) ? requested : LATEST_LEGACY_PROTOCOL_VERSION;
    conn.session = {
      protocolVersion,
      clientCapabilities: isObject(p.capabilities) ? (p.capabilities as ClientCapabilities) : {},
      clientInfo: isObject(p.clientInfo) ? (p.clientInfo as unknown as Implementation) : undefined,
      initialized: false,
      logLevel: undefined,
      subscriptions: new Set(),
    };
    conn.era = "legacy";
    conn.peer.batches = allowsBatches(protocolVersion);
    const result: Params = {
      protocolVersion,
      capabilities: this.capabilities("legacy"),
      serverInfo: this.info,
    };
    if (this.options.instructions !== undefined) result.instructions = this.options.instructions;
    return result;
  }

  /** Capabilities of either era, from what the registry ever held plus the options. */
  private capabilities(era: ProtocolEra): ServerCapabilities {
    const declared = this.registry.declared;
    const caps: ServerCapabilities = {};
    if (declared.tools) caps.tools = { listChanged: true };
    if (declared.prompts) caps.prompts = { listChanged: true };
    if (declared.resources) caps.resources = { subscribe: true, listChanged: true };
    if (declared.completions) caps.completions = {};
    caps.logging = {};
    if (era === "modern" && this.tasksEnabled) caps.extensions = { [TASKS_EXTENSION_ID]: {} };
    const extra = this.options.capabilities;
    if (extra) {
      for (const [key, value] of Object.entries(extra)) {
        if (key === "extensions" && era === "legacy") continue;
        const current = (caps as Record<string, unknown>)[key];
        (caps as Record<string, unknown>)[key] =
          isObject(current) && isObject(value) ? { ...current, ...value } : value;
      }
    }
    return caps;
  }

  private cacheHints(result: Params): Params {
    result.ttlMs = this.ttlMs;
    result.cacheScope = this.cacheScope;
    return result;
  }

  private async modern(method: string, p: Params, meta: RequestMeta, rctx: RequestContext): Promise<Params> {
    const version = meta[MetaKey.ProtocolVersion];
    if (typeof version !== "string" || !isModernVersion(version)) {
      throw McpError.unsupportedProtocolVersion(MODERN_PROTOCOL_VERSIONS, String(version));
    }
    const clientCapabilities = meta[MetaKey.ClientCapabilities];
    if (!isObject(clientCapabilities)) {
      throw McpError.invalidParams(`Missing _meta["${MetaKey.ClientCapabilities}"]`, BAD_REQUEST);
    }
    const logLevel = meta[MetaKey.LogLevel];
    if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
      throw McpError.invalidParams(`Invalid _meta["${MetaKey.LogLevel}"]: ${JSON.stringify(logLevel)}`);
    }
    const clientInfo = meta[MetaKey.ClientInfo];
    const call: CallInfo = {
      era: "modern",
      protocolVersion: version,
      method,
      requestId: rctx.id,
      rctx,
      clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
      clientCapabilities: clientCapabilities as ClientCapabilities,
      meta,
      logThreshold: logLevel,
      requestTimeout: undefined,
    };
    const declared = this.registry.declared;
    let result: Params;
    switch (method) {
      case "server/discover":
        result = this.discover();
        break;
      case "tools/list":
        if (!declared.tools) throw McpError.methodNotFound(method);
        result = this.cacheHints(this.page("tools", "tools", p));
        break;
      case "tools/call":
        if (!declared.tools) throw McpError.methodNotFound(method);
        result = await this.callTool(call, p);
        break;
      case "prompts/list":
        if (!declared.prompts) throw McpError.methodNotFound(method);
        result = this.cacheHints(this.page("prompts", "prompts", p));
        break;
      case "prompts/get":
        if (!declared.prompts) throw McpError.methodNotFound(method);
        result = await this.getPrompt(call, p);
        break;
      case "resources/list":
        if (!declared.resources) throw McpError.methodNotFound(method);
        result = this.cacheHints(this.page("resources", "resources", p));
        break;
      case "resources/templates/list":
        if (!declared.resources) throw McpError.methodNotFound(method);
        result = this.cacheHints(this.page("templates", "resourceTemplates", p));
        break;
      case "resources/read":
        if (!declared.resources) throw McpError.methodNotFound(method);
        result = await this.readResource(call, p);
        break;
      case "completion/complete":
        if (!declared.completions) throw McpError.methodNotFound(method);
        result = await this.complete(p);
        break;
      case "subscriptions/listen":
        result = await this.listen(call, p);
        break;
      case "tasks/get":
      case "tasks/update":
      case "tasks/cancel":
        if (!this.tasksEnabled) throw McpError.methodNotFound(method);
        result = await this.taskMethod(call, method, p);
        break;
      default:
        throw McpError.methodNotFound(method);
    }
    if (result.resultType === undefined) result.resultType = "complete";
    return result;
  }

  private async legacy(
    session: Session,
    method: string,
    p: Params,
    meta: RequestMeta,
    rctx: RequestContext,
  ): Promise<Params> {
    const call: CallInfo = {
      era: "legacy",
      protocolVersion: session.protocolVersion,
      method,
      requestId: rctx.id,
      rctx,
      clientInfo: session.clientInfo,
      clientCapabilities: session.clientCapabilities,
      meta,
      logThreshold: session.logLevel ?? "all",
      requestTimeout: this.options.requestTimeout,
    };
    const declared = this.registry.declared;
    switch (method) {
      case "ping":
        return {};
      case "logging/setLevel": {
        if (!isLoggingLevel(p.level))
          throw McpError.invalidParams(`Invalid log level: ${JSON.stringify(p.level)}`);
        session.logLevel = p.level;
        return {};
      }
      case "tools/list":
        if (!declared.tools) break;
        return this.page("legacyTools", "tools", p);
      case "tools/call":
        if (!declared.tools) break;
        return this.callTool(call, p);
      case "prompts/list":
        if (!declared.prompts) break;
        return this.page("prompts", "prompts", p);
      case "prompts/get":
        if (!declared.prompts) break;
        return this.getPrompt(call, p);
      case "resources/list":
        if (!declared.resources) break;
        return this.page("resources", "resources", p);
      case "resources/templates/list":
        if (!declared.resources) break;
        return this.page("templates", "resourceTemplates", p);
      case "resources/read":
        if (!declared.resources) break;
        return this.readResource(call, p);
      case "resources/subscribe":
      case "resources/unsubscribe": {
        if (!declared.resources) break;
        if (typeof p.uri !== "string") throw McpError.invalidParams(`${method} needs params.uri`);
        if (method === "resources/subscribe") session.subscriptions.add(p.uri);
        else session.subscriptions.delete(p.uri);
        return {};
      }
      case "completion/complete":
        if (!declared.completions) break;
        return this.complete(p);
    }
    throw McpError.methodNotFound(method);
  }

  private discover(): Params {
    const result: Params = {
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: this.capabilities("modern"),
    };
    if (this.options.instructions !== undefined) result.instructions = this.options.instructions;
    this.cacheHints(result);
    result._meta = { [MetaKey.ServerInfo]: this.info };
    return result;
  }

  private page(
    list: "tools" | "legacyTools" | "prompts" | "resources" | "templates",
    key: string,
    p: Params,
  ): Params {
    const all = this.registry.list(list);
    const cursor = p.cursor;
    let offset = 0;
    if (cursor !== undefined && cursor !== "") {
      const decoded = typeof cursor === "string" ? decodeCursor(key, cursor) : undefined;
      if (decoded === undefined || decoded > all.length) throw McpError.invalidParams("Invalid cursor");
      offset = decoded;
    }
    const end = offset + this.pageSize;
    const result: Params = { [key]: all.slice(offset, end) };
    if (end < all.length) result.nextCursor = encodeCursor(key, end);
    return result;
  }

  // ---- MRTR ---------------------------------------------------------------------------------------

  /**
   * Reads `inputResponses` and `requestState` of a modern MRTR-capable request. Synchronous unless there
   * is a `requestState` to open (the common first attempt allocates no promise).
   */
  private openAttempt(
    method: string,
    target: string,
    args: unknown,
    p: Params,
  ): OpenedAttempt | Promise<OpenedAttempt> {
    const responses = p.inputResponses;
    if (responses !== undefined && !isObject(responses)) {
      throw McpError.invalidParams("inputResponses must be an object keyed by input request");
    }
    const answers = responses as Record<string, unknown> | undefined;
    if (p.requestState === undefined) return newAttempt(undefined, answers);
    return this.sealer.open(p.requestState, method, target, args).then((opened) => {
      if (opened === undefined) throw McpError.invalidParams("Invalid requestState");
      return newAttempt(opened, answers);
    });
  }

  private async inputRequired(
    method: string,
    target: string,
    args: unknown,
    attempt: Attempt,
    ctx: Context,
  ): Promise<Params> {
    return {
      resultType: "input_required",
      inputRequests: attempt.pending,
      requestState: await this.sealer.seal(method, target, args, {
        answers: attempt.consumed,
        values: ctx.stateValues(),
      }),
    };
  }

  /**
   * Runs one handler attempt and sorts out how it ended: a protocol error (sent as is), an input request
   * (modern: `input_required`), an abort (no answer), or a result / other failure for `onResult`/`onError`.
   */
  private async attemptHandler(
    call: CallInfo,
    ctx: Context,
    attempt: Attempt | undefined,
    mrtr: { method: string; target: string; args: unknown },
    run: () => unknown,
    onResult: (value: unknown) => Promise<Params> | Params,
    onError: (error: unknown) => Params,
  ): Promise<Params> {
    let value: unknown;
    let error: unknown;
    let failed = false;
    try {
      const returned = run();
      // A handler that answers synchronously costs no extra turn of the microtask queue.
      value = isThenable(returned) ? await returned : returned;
    } catch (e) {
      error = e;
      failed = true;
    }
    if (failed && error instanceof JsonRpcError) throw error;
    if (attempt && hasKeys(attempt.pending)) {
      return this.inputRequired(mrtr.method, mrtr.target, mrtr.args, attempt, ctx);
    }
    if (call.rctx.aborted) throw call.rctx.signal.reason;
    if (failed) {
      if (error instanceof InputRequiredSignal) {
        // Only a legacy-era misuse can get here (a signal with nothing pending).
        throw new McpError(McpErrorCode.InternalError, "Internal error");
      }
      return onError(error);
    }
    return onResult(value);
  }

  private internalError(message: string, detail?: unknown): McpError {
    this.logger.error(message, detail);
    return new McpError(McpErrorCode.InternalError, "Internal error");
  }

  // ---- tools --------------------------------------------------------------------------------------

  /** The wire result of a tool's return value; synchronous unless its output check is not. */
  private finishToolResult(tool: ToolEntry, era: ProtocolEra, value: ToolReturn): Params | Promise<Params> {
    const result = toToolResult(value);
    if (result.isError !== true && tool.output) {
      if (!("structuredContent" in result)) {
        throw this.internalError(`Tool ${tool.name} has an outputSchema but returned no structuredContent`);
      }
      const checked = tool.output.check(result.structuredContent);
      if (checked instanceof Promise) {
        return checked.then((c) => this.checkedToolResult(tool, era, result, c));
      }
      return this.checkedToolResult(tool, era, result, checked);
    }
    return this.checkedToolResult(tool, era, result, undefined);
  }

  private checkedToolResult(
    tool: ToolEntry,
    era: ProtocolEra,
    result: Params,
    checked: Checked | undefined,
  ): Params {
    if (checked && !checked.ok) {
      throw this.internalError(
        `Tool ${tool.name} returned structuredContent that fails its outputSchema: ${checked.message}`,
      );
    }
    // Before 2026-07-28 structuredContent must be an object.
    if (era === "legacy" && result.structuredContent !== undefined && !isObject(result.structuredContent)) {
      delete result.structuredContent;
    }
    return result;
  }

  private async callTool(call: CallInfo, p: Params): Promise<Params> {
    const name = p.name;
    if (typeof name !== "string") throw McpError.invalidParams("tools/call needs params.name");
    const tool = this.registry.tools.get(name);
    if (!tool) throw McpError.invalidParams(`Unknown tool: ${name}`);
    const args = p.arguments === undefined ? {} : p.arguments;
    const modern = call.era === "modern";
    if (modern && tool.paramHeaders.length > 0) {
      const headers = headersOf(call.rctx.info);
      const problem = headers && paramHeaderProblem(tool.paramHeaders, args, headers);
      if (problem) throw McpError.headerMismatch(problem);
    }
    const required = tool.config.requiredClientCapabilities;
    if (required && !satisfies(call.clientCapabilities, required)) {
      if (modern) throw McpError.missingClientCapability(required);
      return toolErrorResult(new Error(`Tool ${name} needs client capabilities ${JSON.stringify(required)}`));
    }
    let asTask = false;
    if (modern && tool.taskSupport !== "forbidden") {
      asTask = hasCapability(call.clientCapabilities, TASKS_CAPABILITY_PATH);
      if (!asTask && tool.taskSupport === "required") throw McpError.missingClientCapability(TASKS_REQUIRED);
    }
    let opened: OpenedAttempt | undefined;
    if (modern) {
      const o = this.openAttempt("tools/call", name, args, p);
      opened = o instanceof Promise ? await o : o;
    }
    if (!isObject(args))
      return toolErrorResult(new Error(`Invalid arguments for tool ${name}: arguments must be an object`));
    let input: unknown = args;
    if (tool.input) {
      const pending = tool.input.check(args);
      const checked = pending instanceof Promise ? await pending : pending;
      if (!checked.ok)
        return toolErrorResult(new Error(`Invalid arguments for tool ${name}: ${checked.message}`));
      input = checked.value;
    }
    const ctx = new Context(call, opened?.attempt, opened?.values);
    const run = () => tool.handler(input, ctx);
    if (!asTask) {
      // The common path: no task can start, so the handler runs at once and nothing races.
      return this.attemptHandler(
        call,
        ctx,
        opened?.attempt,
        { method: "tools/call", target: name, args },
        run,
        (value) => this.finishToolResult(tool, call.era, value as ToolReturn),
        toolErrorResult,
      );
    }
    const owner = ownerOf(ctx.authInfo);
    if ((tool.config.taskMode ?? "auto") === "auto") {
      const { task, signal } = await this.taskManager.create(owner);
      ctx.becomeTask(task.taskId, signal, this.taskManager);
      this.runTask(tool, task.taskId, Promise.resolve().then(run));
      return { ...wireTask(task), resultType: "task" };
    }
    // A tool that may call startTask(): the handler runs, and whichever comes first answers the call.
    let announceTask: ((result: Params) => void) | undefined;
    const taskStarted = new Promise<Params>((resolve) => (announceTask = resolve));
    ctx.onStartTask = async () => {
      const { task, signal } = await this.taskManager.create(owner);
      ctx.becomeTask(task.taskId, signal, this.taskManager);
      announceTask?.({ ...wireTask(task), resultType: "task" });
      return true;
    };
    const running = Promise.resolve().then(run);
    const outcome = this.attemptHandler(
      call,
      ctx,
      opened?.attempt,
      { method: "tools/call", target: name, args },
      () => running,
      (value) => this.finishToolResult(tool, call.era, value as ToolReturn),
      (error) => toolErrorResult(error),
    );
    const first = await Promise.race([
      outcome.then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      ),
      taskStarted.then((created) => ({ created })),
    ]);
    if ("created" in first || ctx.task) {
      const created = "created" in first ? first.created : await taskStarted;
      this.runTask(tool, ctx.task!.id, running);
      return created;
    }
    if ("error" in first) throw first.error;
    return first.result;
  }

  /** Records a task's handler outcome in the store when it settles. */
  private runTask(tool: ToolEntry, taskId: string, running: Promise<unknown>): void {
    const manager = this.taskManager;
    running
      .then(
        async (value) => {
          const result = await this.finishToolResult(tool, "modern", value as ToolReturn);
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
      .catch((error: unknown) => this.logger.error(`Task ${taskId} could not be finished`, error));
  }

  // ---- prompts ------------------------------------------------------------------------------------

  private async getPrompt(call: CallInfo, p: Params): Promise<Params> {
    const name = p.name;
    if (typeof name !== "string") throw McpError.invalidParams("prompts/get needs params.name");
    const prompt = this.registry.prompts.get(name);
    if (!prompt) throw McpError.invalidParams(`Unknown prompt: ${name}`);
    const args = p.arguments === undefined ? {} : p.arguments;
    if (!isObject(args))
      throw McpError.invalidParams(`Invalid arguments for prompt ${name}: arguments must be an object`);
    let input: unknown = args;
    if (prompt.argsCheck) {
      const checked = await prompt.argsCheck.check(args);
      if (!checked.ok)
        throw McpError.invalidParams(`Invalid arguments for prompt ${name}: ${checked.message}`);
      input = checked.value;
    } else {
      const missing = prompt.required.filter((arg) => args[arg] === undefined);
      if (missing.length > 0)
        throw McpError.invalidParams(`Prompt ${name} is missing arguments: ${missing.join(", ")}`);
    }
    const opened = call.era === "modern" ? await this.openAttempt("prompts/get", name, args, p) : undefined;
    const ctx = new Context(call, opened?.attempt, opened?.values);
    return this.attemptHandler(
      call,
      ctx,
      opened?.attempt,
      { method: "prompts/get", target: name, args },
      () => prompt.handler(input, ctx),
      (value) => toPromptResult(value as never, prompt.description),
      (error) => {
        throw this.internalError(`Prompt ${name} failed`, error);
      },
    );
  }

  // ---- resources ----------------------------------------------------------------------------------

  private async readResource(call: CallInfo, p: Params): Promise<Params> {
    const uri = p.uri;
    if (typeof uri !== "string") throw McpError.invalidParams("resources/read needs params.uri");
    const found = this.registry.findResource(uri);
    if (!found) throw McpError.resourceNotFound(uri, call.era);
    const opened = call.era === "modern" ? await this.openAttempt("resources/read", uri, {}, p) : undefined;
    const ctx = new Context(call, opened?.attempt, opened?.values);
    const mimeType = found.entry.mimeType;
    const result = await this.attemptHandler(
      call,
      ctx,
      opened?.attempt,
      { method: "resources/read", target: uri, args: {} },
      () =>
        found.kind === "static"
          ? found.entry.handler(uri, ctx)
          : found.entry.handler(uri, found.variables, ctx),
      (value) => {
        const contents = toResourceContents(value as never, uri, mimeType);
        if (contents === undefined) throw McpError.resourceNotFound(uri, call.era);
        return { contents };
      },
      (error) => {
        throw this.internalError(`Reading resource ${uri} failed`, error);
      },
    );
    if (call.era === "modern" && result.resultType === undefined) this.cacheHints(result);
    return result;
  }

  // ---- completion ---------------------------------------------------------------------------------

  private async complete(p: Params): Promise<Params> {
    const ref = p.ref;
    const argument = p.argument;
    if (
      !isObject(ref) ||
      !isObject(argument) ||
      typeof argument.name !== "string" ||
      typeof argument.value !== "string"
    ) {
      throw McpError.invalidParams("completion/complete needs ref and argument { name, value }");
    }
    const context = isObject(p.context) && isObject(p.context.arguments) ? p.context.arguments : {};
    let completer:
      | ((value: string, c: { arguments: Record<string, string> }) => string[] | Promise<string[]>)
      | undefined;
    if (ref.type === "ref/prompt") {
      const prompt = typeof ref.name === "string" ? this.registry.prompts.get(ref.name) : undefined;
      if (!prompt) throw McpError.invalidParams(`Unknown prompt: ${String(ref.name)}`);
      completer = prompt.complete?.[argument.name];
    } else if (ref.type === "ref/resource") {
      const template = typeof ref.uri === "string" ? this.registry.templates.get(ref.uri) : undefined;
      if (!template && !(typeof ref.uri === "string" && this.registry.resources.has(ref.uri))) {
        throw McpError.invalidParams(`Unknown resource template: ${String(ref.uri)}`);
      }
      completer = template?.complete?.[argument.name];
    } else {
      throw McpError.invalidParams(`Unknown completion reference type: ${String(ref.type)}`);
    }
    let values: string[] = [];
    if (completer) {
      try {
        values = await completer(argument.value, { arguments: context as Record<string, string> });
      } catch (error) {
        throw this.internalError("A completer failed", error);
      }
    }
    return {
      completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 },
    };
  }

  // ---- subscriptions/listen -----------------------------------------------------------------------

  private async listen(call: CallInfo, p: Params): Promise<Params> {
    const filter = p.notifications;
    if (!isObject(filter)) throw McpError.invalidParams("subscriptions/listen needs params.notifications");
    const caps = this.capabilities("modern");
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
      if (this.tasksEnabled)
        honored.taskIds = filter.taskIds.filter((t): t is string => typeof t === "string");
    }
    const rctx = call.rctx;
    const subscriptionId: JsonRpcId = rctx.id;
    const tag = { [MetaKey.SubscriptionId]: subscriptionId };
    const signal = rctx.signal;
    if (signal.aborted) throw signal.reason;
    let listener!: Listener;
    const closedResult = (): Params => ({ resultType: "complete", _meta: tag });
    const ended = new Promise<Params>((resolve, reject) => {
      const cleanup = () => {
        this.listeners.delete(listener);
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
      signal.addEventListener("abort", onAbort, { once: true });
    });
    if (this.isClosed) return closedResult();
    // Registered before the acknowledgement is sent: every later notification is sent after it, in order.
    this.listeners.add(listener);
    await rctx.notify("notifications/subscriptions/acknowledged", { _meta: tag, notifications: honored });
    return ended;
  }

  // ---- tasks extension ----------------------------------------------------------------------------

  private async taskMethod(call: CallInfo, method: string, p: Params): Promise<Params> {
    if (!hasCapability(call.clientCapabilities, TASKS_CAPABILITY_PATH)) {
      throw McpError.missingClientCapability(TASKS_REQUIRED);
    }
    const taskId = p.taskId;
    if (typeof taskId !== "string") throw McpError.invalidParams(`${method} needs params.taskId`);
    const manager = this.taskManager;
    const task = await manager.get(taskId, ownerOf(call.rctx.info?.authInfo));
    if (!task) throw McpError.invalidParams(`Unknown task: ${taskId}`);
    switch (method) {
      case "tasks/get":
        return { ...wireTask(task), resultType: "complete" };
      case "tasks/update": {
        const responses = p.inputResponses;
        if (!isObject(responses)) throw McpError.invalidParams("tasks/update needs params.inputResponses");
        await manager.update(taskId, responses);
        return { resultType: "complete" };
      }
      default:
        await manager.cancel(taskId);
        return { resultType: "complete" };
    }
  }
}

/**
 * Creates an MCP server. Nothing happens until {@link Server.connect}; register tools, resources,
 * templates and prompts before or after.
 * @throws TypeError when `name` or `version` is missing.
 */
export function createServer(options: ServerOptions): Server {
  return new ServerImpl(options);
}

/**
 * Attaches an input schema to a tool handler, so `registerTool(name, config, handler)` takes the schema
 * from the handler when `config.inputSchema` is absent, and the handler's `args` are typed by it.
 */
export function withInputSchema<S extends SchemaInput>(
  schema: S,
  handler: ToolHandler<ArgsOf<S>>,
): SchemaBoundHandler<S> {
  return Object.assign((args: ArgsOf<S>, context: Parameters<ToolHandler>[1]) => handler(args, context), {
    inputSchema: schema,
  });
}
