import {
  ConnectionClosedError,
  createPeer,
  JsonRpcError,
  type JsonRpcId,
  type Peer,
  type ProgressParams,
  type RequestOptions,
  TimeoutError,
  type Transport,
} from "@mcpkit/jsonrpc";
import {
  type ClientCapabilities,
  type CompleteResult,
  collectParamHeaders,
  type DetailedTask,
  encodeHeaderValue,
  findXMcpHeaderProblem,
  type GetPromptResult,
  Header,
  type Implementation,
  type InputRequests,
  type InputResponses,
  isLegacyVersion,
  isLoggingLevel,
  isModernError,
  isModernVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  type LegacyTask,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  McpError,
  McpErrorCode,
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  mcpNameFor,
  type Prompt,
  type PromptReference,
  type ProtocolEra,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ResourceTemplateReference,
  ResultType,
  readResultType,
  readUnsupportedVersionData,
  type ServerCapabilities,
  type SubscriptionFilter,
  TASKS_EXTENSION_ID,
  type Tool,
} from "@mcpkit/protocol";
import { defaultEraCache, type EraCache, type RememberedEra } from "./era-cache.js";
import { InputRequestError, InvalidResultError, TaskCancelledError } from "./errors.js";
import { answerInputRequest, type InputHandlers } from "./input.js";
import { Lock } from "./internal/lock.js";
import { OutputValidators } from "./internal/output-validator.js";
import {
  httpStatusOf,
  isFatal,
  isObject,
  isSessionExpired,
  sleep,
  toWireError,
  withKey,
} from "./internal/util.js";
import { wrapTransport } from "./internal/wire.js";
import {
  checkTimeout,
  currentRequestConfig,
  type RequestConfig,
  resolveRequestConfig,
} from "./request-config.js";
import {
  createSubscription,
  matchesFilter,
  type Subscription,
  type SubscriptionControl,
  type SubscriptionNotification,
} from "./subscription.js";
import { type ToolResult, toToolResult } from "./tool-result.js";
import { normalizeSource, type Plan, type TransportSource } from "./transport-source.js";

/** How {@link Client.connect} picks the protocol era. */
export type VersionNegotiation = "auto" | "modern" | "legacy";

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The client's name, sent as `clientInfo` (legacy `initialize`, modern `_meta`). */
  name: string;
  version: string;
  /** Display name for `clientInfo`. */
  title?: string;
  /**
   * Capabilities to declare besides those the handlers imply (a handler declares its capability).
   * Declare `elicitation: { form: { applyDefaults: true } }` to have schema defaults filled in.
   */
  capabilities?: ClientCapabilities;
  /** Answers to server requests (legacy) and `input_required` rounds (modern): one set for both eras. */
  handlers?: InputHandlers;
  /**
   * `auto` (default) probes `server/discover` and falls back to `initialize` (and, over HTTP with an
   * `sse` choice, to HTTP+SSE) as the spec's compatibility rules say; `modern` and `legacy` force an era.
   * @see SPEC.md §3.4 Back-compat
   */
  versionNegotiation?: VersionNegotiation;
  /** A preferred version of its era (default: the latest of each era). */
  protocolVersion?: string;
  /** Default timeout of each request in ms (default 60 000; `Infinity` disables). */
  requestTimeout?: number;
  /** Default bound on one request's whole wait when progress resets its timeout (default 10 × timeout). */
  maxTotalTimeout?: number;
  /** Whether progress restarts a request's timeout (default true). */
  resetTimeoutOnProgress?: boolean;
  /** Bound on the whole handshake of `connect()` and of every reconnection, in ms (default 30 000). */
  connectTimeout?: number;
  /**
   * How long the `auto` probe waits for a `server/discover` answer before deciding the server is legacy
   * (default 10 000 ms, never more than what is left of `connectTimeout`).
   */
  probeTimeout?: number;
  /**
   * One exchange at a time, in call order; each call's timeout counts from when it takes its turn, and
   * `close()` waits for the exchange in flight. Default false (requests run concurrently).
   * A `subscribe()` stream does not hold the turn.
   */
  serialize?: boolean;
  /**
   * After the connection ended unexpectedly (a stdio server crashed), the next call reconnects through
   * the factory given to `connect()` — a fresh handshake — before it runs. Calls that were in flight
   * are never replayed (a tool may not be idempotent). Default false.
   */
  autoRespawn?: boolean;
  /** How many `input_required` rounds one call may take (default 10). */
  maxInputRounds?: number;
  /** Declare the tasks extension (2026-07-28) so the server may answer `tools/call` with a task. */
  tasks?: boolean;
  /** Remembers the era per server key (see {@link ConnectOptions.serverKey}); default: a shared in-memory map. */
  eraCache?: EraCache;
  /** `notifications/message` from the server (legacy: after `setLogLevel`; modern: for requests made after it). */
  onLog?: (params: LoggingMessageNotificationParams) => void;
  /** Every notification from the server, after the client handled it. */
  onNotification?: (notification: SubscriptionNotification) => void;
  /** Problems nobody awaits: a dropped tool, a throwing callback, a late answer. */
  onError?: (error: Error) => void;
}

/** Options of {@link Client.connect}. */
export interface ConnectOptions {
  /** Aborts the handshake (rejects with `signal.reason`). */
  signal?: AbortSignal;
  /** Names the server for the era cache (e.g. the URL's origin + path, or the command line). */
  serverKey?: string;
}

/** Options of one call: its timeout settings, a signal, and progress. */
export interface CallOptions extends RequestConfig {
  /** Aborting rejects the call with `signal.reason` and cancels it at the server. */
  signal?: AbortSignal;
  /** Receives `notifications/progress` for this call (and its `input_required` rounds). */
  onProgress?: (progress: ProgressParams) => void;
  /** Extra `_meta` fields for the request (the client's own modern fields always win). */
  meta?: Record<string, unknown>;
}

/** Options of the list methods. */
export interface ListOptions extends CallOptions {
  /** Ignore the cache and fetch every page again. */
  refresh?: boolean;
}

/** Options of {@link Client.awaitTask}. */
export interface AwaitTaskOptions extends CallOptions {
  /** Called with each polled state of the task. */
  onStatus?: (task: DetailedTask) => void;
}

/** A task as `getTask` returns it: the extension's detailed task, or a 2025-11-25 task. */
export type TaskInfo = DetailedTask | LegacyTask;

/** The answer of `completion/complete`. */
export type Completion = CompleteResult["completion"];

/**
 * An MCP client session over one server, the same API in both protocol eras.
 * Create it with {@link createClient}, then {@link Client.connect}.
 */
export interface Client {
  /**
   * Connects and negotiates the era, bounded by `connectTimeout`. With a factory (or
   * {@link TransportChoices}) the client can reconnect later.
   * @throws TimeoutError when the handshake did not finish in time; `McpError` when the server refused it;
   *   `InvalidResultError` when it chose a version the client does not speak.
   */
  connect(source: TransportSource, options?: ConnectOptions): Promise<void>;
  /** Every tool, all pages; cached for the result's `ttlMs` (legacy: until `list_changed`, if the server sends it). */
  listTools(options?: ListOptions): Promise<Tool[]>;
  listResources(options?: ListOptions): Promise<Resource[]>;
  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]>;
  listPrompts(options?: ListOptions): Promise<Prompt[]>;
  /**
   * Calls a tool. A tool failure is data (`isError`); a JSON-RPC error throws `McpError`.
   * `input_required` rounds are answered by the handlers; a task is awaited.
   * @throws OutputValidationError when `structuredContent` does not match the tool's `outputSchema`.
   */
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>;
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult>;
  complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options?: CallOptions,
  ): Promise<Completion>;
  /** Checks the server answers: `ping` (legacy) or `server/discover` (modern, which has no ping). */
  ping(options?: CallOptions): Promise<void>;
  /** Legacy: `logging/setLevel`. Modern: every later request carries `_meta` logLevel. */
  setLogLevel(level: LoggingLevel, options?: CallOptions): Promise<void>;
  /** A stream of notifications matching `filter`: `subscriptions/listen` (modern) or the legacy notifications. */
  subscribe(filter: SubscriptionFilter): Subscription;
  /** `tasks/get`. */
  getTask(taskId: string, options?: CallOptions): Promise<TaskInfo>;
  /** `tasks/update` (tasks extension): answers to some of a task's input requests. */
  updateTask(taskId: string, inputResponses: InputResponses, options?: CallOptions): Promise<void>;
  /** `tasks/cancel`. */
  cancelTask(taskId: string, options?: CallOptions): Promise<void>;
  /**
   * Waits until a `tools/call` task ends, answering its input requests with the handlers.
   * @throws McpError when the task failed; TaskCancelledError when it was cancelled.
   */
  awaitTask(taskId: string, options?: AwaitTaskOptions): Promise<ToolResult>;
  /** Sends any request (with the modern `_meta` when modern); the escape hatch for extensions. */
  request(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  /** Closes the session; idempotent. Pending calls fail with `ConnectionClosedError`. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
  /** The server's `Implementation`, once connected. */
  readonly serverInfo: Implementation | undefined;
  /** The server's capabilities, once connected. */
  readonly capabilities: ServerCapabilities | undefined;
  readonly instructions: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly era: ProtocolEra | undefined;
  /** True after `notifications/tools/list_changed` until the next `listTools()`. */
  readonly toolsStale: boolean;
  readonly promptsStale: boolean;
  /** True after `notifications/resources/list_changed` until the next `listResources()`. */
  readonly resourcesStale: boolean;
  /** The transport of the current connection (for transport-specific state such as a session id). */
  readonly transport: Transport | undefined;
}

interface Session {
  readonly inner: Transport;
  readonly peer: Peer;
  readonly httpLike: boolean;
  /** The transport puts per-request headers on the wire (HTTP): the client computes them. */
  readonly headers: boolean;
  era: ProtocolEra;
  version: string;
  declared: ClientCapabilities;
  serverInfo: Implementation | undefined;
  serverCapabilities: ServerCapabilities;
  instructions: string | undefined;
  dead: boolean;
  closeReason: Error | undefined;
  readonly subs: Set<SubscriptionControl>;
  readonly listens: Map<string, SubscriptionControl>;
  readonly resourceRefs: Map<string, number>;
  reinit: Promise<void> | undefined;
}

type ListKind = "tools" | "prompts" | "resources" | "resourceTemplates";

/** The server-to-client requests an input handler answers, by handler. */
const INPUT_METHODS = [
  ["elicitation", "elicitation/create"],
  ["sampling", "sampling/createMessage"],
  ["roots", "roots/list"],
] as const;

const LISTS: Record<ListKind, { method: string; key: string; capability: keyof ServerCapabilities }> = {
  tools: { method: "tools/list", key: "tools", capability: "tools" },
  prompts: { method: "prompts/list", key: "prompts", capability: "prompts" },
  resources: { method: "resources/list", key: "resources", capability: "resources" },
  resourceTemplates: {
    method: "resources/templates/list",
    key: "resourceTemplates",
    capability: "resources",
  },
};

const STALE_KIND: Record<string, ListKind[]> = {
  "notifications/tools/list_changed": ["tools"],
  "notifications/prompts/list_changed": ["prompts"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
};

const DEFAULT_CONNECT_TIMEOUT = 30_000;
const DEFAULT_PROBE_TIMEOUT = 10_000;
const DEFAULT_MAX_INPUT_ROUNDS = 10;
const HTTP_FALLBACK_STATUSES = new Set([400, 404, 405]);

/**
 * Creates an MCP client. Nothing happens until {@link Client.connect}.
 *
 * One session API over both eras: the same calls, the same handlers, the same subscription stream,
 * whichever era the server speaks. Requests never hang: each one has a timeout (60 s unless told
 * otherwise), and a connection that ends fails every pending call at once.
 * @throws RangeError on a timeout that is NaN, 0 or negative, or a `protocolVersion` mcpkit does not speak.
 * @see SPEC.md §3.4 (negotiation), §3.7 (MRTR), §4 (legacy era)
 */
export function createClient(options: ClientOptions): Client {
  if (!options || typeof options.name !== "string" || typeof options.version !== "string") {
    throw new TypeError("createClient() needs { name, version }");
  }
  const sessionConfig: RequestConfig = {};
  if (options.requestTimeout !== undefined) {
    checkTimeout("requestTimeout", options.requestTimeout);
    sessionConfig.timeout = options.requestTimeout;
  }
  if (options.maxTotalTimeout !== undefined) {
    checkTimeout("maxTotalTimeout", options.maxTotalTimeout);
    sessionConfig.maxTotalTimeout = options.maxTotalTimeout;
  }
  if (options.resetTimeoutOnProgress !== undefined) {
    sessionConfig.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
  }
  const connectTimeout = options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT;
  checkTimeout("connectTimeout", connectTimeout);
  const probeTimeout = options.probeTimeout ?? DEFAULT_PROBE_TIMEOUT;
  checkTimeout("probeTimeout", probeTimeout);
  const maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  if (!Number.isInteger(maxInputRounds) || maxInputRounds < 0) {
    throw new RangeError(`maxInputRounds must be a non-negative integer, got ${String(maxInputRounds)}`);
  }
  const negotiation: VersionNegotiation = options.versionNegotiation ?? "auto";
  if (negotiation !== "auto" && negotiation !== "modern" && negotiation !== "legacy") {
    throw new RangeError(
      `versionNegotiation must be "auto", "modern" or "legacy", got ${String(negotiation)}`,
    );
  }
  let preferredModern: string = LATEST_PROTOCOL_VERSION;
  let preferredLegacy: string = LATEST_LEGACY_PROTOCOL_VERSION;
  if (options.protocolVersion !== undefined) {
    if (isModernVersion(options.protocolVersion)) preferredModern = options.protocolVersion;
    else if (isLegacyVersion(options.protocolVersion)) preferredLegacy = options.protocolVersion;
    else throw new RangeError(`protocolVersion ${JSON.stringify(options.protocolVersion)} is not supported`);
  }
  const handlers: InputHandlers = { ...options.handlers };
  const clientInfo: Implementation = { name: options.name, version: options.version };
  if (options.title !== undefined) clientInfo.title = options.title;
  const onError = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing error callback must not take the client down.
    }
  };

  let state: "new" | "connecting" | "open" | "closing" | "closed" = "new";
  let session: Session | undefined;
  let plan: Plan | undefined;
  let remembered: RememberedEra | undefined;
  let serverKey: string | undefined;
  let respawning: Promise<Session> | undefined;
  let closePromise: Promise<void> | undefined;
  let logLevel: LoggingLevel | undefined;
  const eraCache = options.eraCache ?? defaultEraCache;
  const lifetime = new AbortController();
  const lock = options.serialize ? new Lock() : undefined;
  const validators = new OutputValidators();
  let toolIndex = new Map<string, Tool>();
  const caches: Partial<Record<ListKind, { items: unknown[]; expires: number }>> = {};
  const stale: Record<ListKind, boolean> = {
    tools: false,
    prompts: false,
    resources: false,
    resourceTemplates: false,
  };
  const generation: Record<ListKind, number> = { tools: 0, prompts: 0, resources: 0, resourceTemplates: 0 };

  function declaredCapabilities(era: ProtocolEra, version: string): ClientCapabilities {
    const caps: ClientCapabilities = structuredClone(options.capabilities ?? {});
    if (handlers.elicitation && !caps.elicitation) {
      // Modes arrived in 2025-11-25; before that an empty object meant form elicitation.
      caps.elicitation = era === "legacy" && version < "2025-11-25" ? {} : { form: {} };
    }
    if (handlers.sampling && !caps.sampling) caps.sampling = {};
    if (handlers.roots && !caps.roots) caps.roots = {};
    if (era === "modern" && options.tasks) caps.extensions = { ...caps.extensions, [TASKS_EXTENSION_ID]: {} };
    if (era === "legacy") delete caps.extensions;
    return caps;
  }

  // The modern `_meta` a request carries when the call adds nothing of its own: the same for every
  // request of a session until its version, declared capabilities or log level change, so it is built
  // once and shared (it is only ever serialized, never changed).
  let sharedMeta:
    | { version: string; declared: ClientCapabilities; logLevel: string | undefined; meta: object }
    | undefined;

  function modernMeta(session: Session): object {
    const cached = sharedMeta;
    if (
      cached !== undefined &&
      cached.version === session.version &&
      cached.declared === session.declared &&
      cached.logLevel === logLevel
    ) {
      return cached.meta;
    }
    const meta: Record<string, unknown> = {
      [MetaKey.ProtocolVersion]: session.version,
      [MetaKey.ClientCapabilities]: session.declared,
      [MetaKey.ClientInfo]: clientInfo,
    };
    if (logLevel) meta[MetaKey.LogLevel] = logLevel;
    Object.freeze(meta);
    sharedMeta = { version: session.version, declared: session.declared, logLevel, meta };
    return meta;
  }

  function withMeta(
    session: Session,
    params: Record<string, unknown> | undefined,
    extra?: Record<string, unknown>,
  ) {
    const base = params ?? {};
    const prior = isObject(base._meta) ? base._meta : undefined;
    if (session.era !== "modern") {
      if (!extra) return params;
      return withKey(base, "_meta", { ...prior, ...extra });
    }
    const shared = modernMeta(session);
    return withKey(base, "_meta", !prior && !extra ? shared : { ...prior, ...extra, ...shared });
  }

  // ---- connection -------------------------------------------------------------------------------

  function openSession(inner: Transport): Session {
    const s: Session = {
      inner,
      peer: undefined as unknown as Peer,
      // A transport that carries headers is an HTTP one, even while its legacy era has no per-request stream.
      httpLike: inner.traits?.perRequestHeaders === true || inner.traits?.perRequestStream === true,
      headers: inner.traits?.perRequestHeaders === true,
      era: "modern",
      version: preferredModern,
      declared: {},
      serverInfo: undefined,
      serverCapabilities: {},
      instructions: undefined,
      dead: false,
      closeReason: undefined,
      subs: new Set(),
      listens: new Map(),
      resourceRefs: new Map(),
      reinit: undefined,
    };
    const wire = wrapTransport(inner, {
      era: () => s.era,
      refuse: () =>
        state === "closing" || state === "closed"
          ? new ConnectionClosedError("The client is closing")
          : undefined,
      explicitCancel: (method) => s.era === "legacy" && method !== "initialize",
    });
    const peer = createPeer(wire, {
      timeout: sessionConfig.timeout ?? 60_000,
      onError,
      onClose: (reason) => {
        s.dead = true;
        s.closeReason = reason;
        const error = reason ?? new ConnectionClosedError("The connection to the server closed");
        for (const sub of [...s.subs]) sub.end(state === "closing" || state === "closed" ? undefined : error);
        s.subs.clear();
        s.listens.clear();
      },
    });
    (s as { peer: Peer }).peer = peer;
    peer.onRequest("ping", () => ({}));
    // A handler the app gave answers its server request (legacy era; modern servers ask through MRTR).
    for (const [kind, method] of INPUT_METHODS) {
      if (!handlers[kind]) continue;
      peer.onRequest(method, (params, ctx) =>
        answerInputRequest(
          handlers,
          s.declared,
          { method, params },
          {
            signal: ctx.signal,
            era: s.era,
            serverInfo: s.serverInfo,
          },
        ),
      );
    }
    peer.onAnyNotification((params, ctx) =>
      handleNotification(s, ctx.method, isObject(params) ? params : {}),
    );
    return s;
  }

  async function startSession(inner: Transport): Promise<Session> {
    const s = openSession(inner);
    await s.peer.start();
    return s;
  }

  async function closeSession(s: Session | undefined, reason?: Error): Promise<void> {
    if (!s) return;
    await s.peer.close(reason).catch(onError);
  }

  /** Runs the handshake on a new transport from the plan, bounded by `connectTimeout`. */
  async function establish(p: Plan, signal: AbortSignal | undefined): Promise<Session> {
    const deadline = Date.now() + connectTimeout;
    const signals = [lifetime.signal];
    if (signal) signals.push(signal);
    const abort = signals.length === 1 ? lifetime.signal : AbortSignal.any(signals);
    const budget = (): number => {
      abort.throwIfAborted();
      const left = deadline - Date.now();
      if (left <= 0) throw new TimeoutError(`connect() timed out after ${connectTimeout} ms`, connectTimeout);
      return left;
    };
    // An explicit era always wins; `auto` starts with the era remembered for this server, if any.
    const order: ProtocolEra[] =
      negotiation !== "auto"
        ? [negotiation]
        : remembered?.era === "legacy"
          ? ["legacy", "modern"]
          : ["modern", "legacy"];
    let s: Session | undefined;
    try {
      if (remembered?.via === "sse" && p.hasSse) {
        s = await startSession(await p.create("sse"));
        await initialize(s, budget, abort);
        return s;
      }
      s = await startSession(await p.create(order[0] === "legacy" ? "legacy" : "modern"));
      let modernHint: string | undefined;
      for (let i = 0; i < order.length; i++) {
        const era = order[i]!;
        const hasNext = i + 1 < order.length;
        if (era === "modern") {
          const outcome = await discover(s, budget, abort, hasNext, modernHint);
          if (outcome === true) return s;
          if (hasNext && p.separateLegacy) {
            await closeSession(s);
            s = await startSession(await p.create("legacy"));
          }
          continue;
        }
        try {
          await initialize(s, budget, abort);
          return s;
        } catch (error) {
          if (abort.aborted || error instanceof TimeoutError) throw error;
          const status = httpStatusOf(error);
          if (p.hasSse && status !== undefined && HTTP_FALLBACK_STATUSES.has(status)) {
            await closeSession(s);
            s = await startSession(await p.create("sse"));
            await initialize(s, budget, abort);
            remembered = { era: "legacy", protocolVersion: s.version, via: "sse" };
            return s;
          }
          // A modern-only server names its versions in the error it gives `initialize`.
          const supported = readUnsupportedVersionData(error)?.supported ?? [];
          modernHint = supported.find((v) => isModernVersion(v));
          if (negotiation === "auto" && (modernHint || isModernError(error))) {
            if (hasNext) continue;
            // The probe was lost (a slow start, say); the server has now said it is modern.
            if (await discover(s, budget, abort, false, modernHint)) return s;
          }
          throw error;
        }
      }
      throw new InvalidResultError(
        "server/discover",
        "The server supports no protocol version this client speaks",
      );
    } catch (error) {
      await closeSession(s, error instanceof Error ? error : undefined);
      throw toWireError(error);
    }
  }

  /**
   * `server/discover`: true when the server is modern (the session is then set up); false when the
   * caller should fall back to `initialize`. Throws when there is nothing to fall back to.
   */
  async function discover(
    s: Session,
    budget: () => number,
    signal: AbortSignal,
    probing: boolean,
    hint: string | undefined,
  ): Promise<boolean> {
    s.era = "modern";
    s.version = hint ?? (remembered?.era === "modern" ? remembered.protocolVersion : preferredModern);
    s.declared = declaredCapabilities("modern", s.version);
    // -32022 names the versions to retry with; allow a couple of retries, never a loop.
    for (let attempt = 0; attempt < 3; attempt++) {
      const left = budget();
      let result: unknown;
      try {
        const probe: RequestOptions = { timeout: probing ? Math.min(probeTimeout, left) : left, signal };
        const headers = wireHeaders(s, "server/discover", undefined);
        if (headers) probe.headers = headers;
        result = await s.peer.request("server/discover", withMeta(s, {}), probe);
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof JsonRpcError && error.code === McpErrorCode.UnsupportedProtocolVersion) {
          const supported = readUnsupportedVersionData(error)?.supported ?? [];
          const next = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v));
          if (next) {
            s.version = next;
            s.declared = declaredCapabilities("modern", next);
            continue;
          }
          if (probing && supported.some((v) => isLegacyVersion(v))) return false;
          throw toWireError(error);
        }
        if (probing && !isModernError(error) && !isFatal(error, s.peer)) {
          // Any other error or a timeout means legacy (never keyed to one code). @see SPEC.md §3.4
          if (error instanceof TimeoutError) budget();
          return false;
        }
        throw toWireError(error);
      }
      return acceptDiscover(s, result, probing);
    }
    throw new InvalidResultError(
      "server/discover",
      "The server kept rejecting every protocol version offered",
    );
  }

  function acceptDiscover(s: Session, result: unknown, probing: boolean): boolean {
    if (!isObject(result))
      throw new InvalidResultError("server/discover", "server/discover returned no object");
    const type = readResultType(result);
    if (type !== ResultType.Complete) {
      throw new InvalidResultError(
        "server/discover",
        `Unexpected resultType ${JSON.stringify(result.resultType)}`,
      );
    }
    if (!Array.isArray(result.supportedVersions)) {
      // Not a DiscoverResult: a server that answers any method with something is not modern for that.
      if (probing) return false;
      throw new InvalidResultError("server/discover", "server/discover returned no supportedVersions");
    }
    const supported = result.supportedVersions as unknown[];
    if (supported.length > 0 && !supported.includes(s.version)) {
      const next = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v));
      if (!next) {
        if (probing) return false;
        throw new InvalidResultError(
          "server/discover",
          `The server supports ${supported.join(", ")}; this client speaks ${MODERN_PROTOCOL_VERSIONS.join(", ")} in the modern era`,
        );
      }
      s.version = next;
      s.declared = declaredCapabilities("modern", next);
    }
    const meta = isObject(result._meta) ? result._meta : {};
    const info = meta[MetaKey.ServerInfo] ?? result.serverInfo;
    s.serverInfo = isObject(info) ? (info as unknown as Implementation) : undefined;
    s.serverCapabilities = isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
    s.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
    return true;
  }

  async function initialize(s: Session, budget: () => number, signal: AbortSignal): Promise<void> {
    s.era = "legacy";
    const version = remembered?.era === "legacy" ? remembered.protocolVersion : preferredLegacy;
    s.version = version;
    s.declared = declaredCapabilities("legacy", version);
    const result = await s.peer.request(
      "initialize",
      { protocolVersion: version, capabilities: s.declared, clientInfo },
      { timeout: budget(), signal },
    );
    if (!isObject(result) || typeof result.protocolVersion !== "string") {
      throw new InvalidResultError("initialize", "initialize returned no protocolVersion");
    }
    const chosen = result.protocolVersion;
    if (!(LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(chosen)) {
      throw new InvalidResultError(
        "initialize",
        `The server chose protocol version ${JSON.stringify(chosen)}, which this client does not speak in the legacy era`,
      );
    }
    s.version = chosen;
    s.declared = declaredCapabilities("legacy", chosen);
    s.serverInfo = isObject(result.serverInfo) ? (result.serverInfo as unknown as Implementation) : undefined;
    s.serverCapabilities = isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
    s.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
    await s.peer.notify("notifications/initialized");
    if (logLevel && s.serverCapabilities.logging) {
      await s.peer
        .request("logging/setLevel", { level: logLevel }, { timeout: Math.min(budget(), 60_000), signal })
        .catch(onError);
    }
  }

  function settle(s: Session): Session {
    session = s;
    remembered = {
      era: s.era,
      protocolVersion: s.version,
      ...(remembered?.via === "sse" && s.era === "legacy" ? { via: "sse" as const } : {}),
    };
    if (serverKey !== undefined) eraCache.set(serverKey, remembered);
    for (const kind of Object.keys(caches) as ListKind[]) delete caches[kind];
    return s;
  }

  /** The live session, reconnecting it first when it died and `autoRespawn` allows. */
  /** The session when it is open and alive (the common case, answered without a promise). */
  function liveSession(): Session | undefined {
    return state === "open" && session !== undefined && !session.dead ? session : undefined;
  }

  async function ensureSession(): Promise<Session> {
    if (state === "closing" || state === "closed") throw new ConnectionClosedError("The client is closed");
    if (state === "new" || state === "connecting" || !session) {
      throw new Error("The client is not connected: await client.connect(transport) first");
    }
    if (!session.dead) return session;
    if (respawning) return respawning;
    const reason = session.closeReason;
    const detail = reason ? `: ${reason.message}` : "";
    if (!options.autoRespawn) {
      throw new ConnectionClosedError(
        `The connection to the server ended${detail}. Create the client with autoRespawn: true and connect() with a transport factory to restart the server on the next call`,
        { cause: reason },
      );
    }
    if (!plan?.respawnable) {
      throw new ConnectionClosedError(
        `The connection to the server ended${detail}. autoRespawn needs connect() to be given a transport factory, not a Transport object`,
        { cause: reason },
      );
    }
    const p = plan;
    respawning = establish(p, undefined)
      .then(settle)
      .finally(() => {
        respawning = undefined;
      });
    return respawning;
  }

  // ---- requests -------------------------------------------------------------------------------

  let legacyHeaders: { version: string; headers: Record<string, string> } | undefined;

  /**
   * What a request needs on the wire of a transport that carries headers (HTTP), passed down with the send:
   * modern `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` of a `tools/call` (from
   * the tool's schema in the last list); legacy only the version (the transport keeps the session id).
   */
  function wireHeaders(s: Session, method: string, raw: unknown): Record<string, string> | undefined {
    if (!s.headers) return undefined;
    if (s.era !== "modern") {
      if (legacyHeaders?.version !== s.version) {
        legacyHeaders = { version: s.version, headers: { [Header.ProtocolVersion]: s.version } };
      }
      return legacyHeaders.headers;
    }
    const headers: Record<string, string> = { [Header.ProtocolVersion]: s.version, [Header.Method]: method };
    const name = mcpNameFor(method, raw);
    if (name !== undefined) headers[Header.Name] = encodeHeaderValue(name);
    if (method === "tools/call" && isObject(raw)) {
      const tool = typeof raw.name === "string" ? toolIndex.get(raw.name) : undefined;
      if (tool) Object.assign(headers, collectParamHeaders(tool.inputSchema, raw.arguments));
    }
    return headers;
  }

  /** One exchange on a session: meta, timeouts, lock, and the retries the spec asks for. */
  // The peer options of a call that sets nothing itself, outside any withRequestConfig scope: the same
  // every time (the session settings are fixed at construction), so made once.
  let plainOptions: RequestOptions | undefined;

  function requestOptionsFor(call: CallOptions | undefined): RequestOptions {
    if (call === undefined && currentRequestConfig() === undefined) {
      plainOptions ??= requestOptionsFrom(resolveRequestConfig(undefined, sessionConfig), undefined);
      return plainOptions;
    }
    return requestOptionsFrom(resolveRequestConfig(call, sessionConfig), call);
  }

  function requestOptionsFrom(
    config: ReturnType<typeof resolveRequestConfig>,
    call: CallOptions | undefined,
  ): RequestOptions {
    const peerOptions: RequestOptions = {
      timeout: config.timeout,
      resetTimeoutOnProgress: config.resetTimeoutOnProgress,
    };
    if (config.maxTotalTimeout !== undefined) peerOptions.maxTotalTimeout = config.maxTotalTimeout;
    if (call?.signal) peerOptions.signal = call.signal;
    if (call?.onProgress) peerOptions.onProgress = call.onProgress;
    return peerOptions;
  }

  async function exchange(
    s: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions | undefined,
    retried = false,
    onId?: (id: JsonRpcId) => void,
  ): Promise<unknown> {
    let peerOptions = requestOptionsFor(call);
    const headers = wireHeaders(s, method, params);
    if (headers !== undefined || onId !== undefined) {
      peerOptions = Object.assign({}, peerOptions);
      if (headers !== undefined) peerOptions.headers = headers;
      if (onId !== undefined) peerOptions.onId = onId;
    }
    const release = lock && method !== "subscriptions/listen" ? await lock.acquire(call?.signal) : undefined;
    let result: unknown;
    try {
      result = await s.peer.request(method, withMeta(s, params, call?.meta), peerOptions);
    } catch (error) {
      release?.();
      if (!retried && !s.dead && state === "open") {
        // A legacy Streamable HTTP session that expired (404): initialize again, once, and retry.
        if (s.era === "legacy" && isSessionExpired(error)) {
          await reinitialize(s, error);
          return exchange(s, method, params, call, true, onId);
        }
        // A modern server that dropped our version names the ones to use.
        if (s.era === "modern" && error instanceof JsonRpcError) {
          if (error.code === McpErrorCode.UnsupportedProtocolVersion) {
            const supported = readUnsupportedVersionData(error)?.supported ?? [];
            const next = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v) && v !== s.version);
            if (next) {
              s.version = next;
              s.declared = declaredCapabilities("modern", next);
              return exchange(s, method, params, call, true, onId);
            }
          }
          // Mcp-Param headers built from a stale tool list: list again, then retry. @see SPEC.md §3.11
          if (error.code === McpErrorCode.HeaderMismatch && method === "tools/call" && s.httpLike) {
            await listAll("tools", { refresh: true });
            return exchange(s, method, params, call, true, onId);
          }
        }
      }
      throw toWireError(error);
    }
    release?.();
    return result;
  }

  function reinitialize(s: Session, cause: unknown): Promise<void> {
    s.reinit ??= (async () => {
      const deadline = Date.now() + connectTimeout;
      const budget = () => {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new TimeoutError(`Re-initializing timed out after ${connectTimeout} ms`, connectTimeout);
        return left;
      };
      try {
        await initialize(s, budget, lifetime.signal);
      } catch (error) {
        throw new ConnectionClosedError(`The server's session expired and initializing again failed`, {
          cause: error ?? cause,
        });
      }
    })().finally(() => {
      s.reinit = undefined;
    });
    return s.reinit;
  }

  function inputSignal(call: CallOptions | undefined): AbortSignal {
    return call?.signal ? AbortSignal.any([call.signal, lifetime.signal]) : lifetime.signal;
  }

  async function fulfil(
    s: Session,
    requests: InputRequests,
    call: CallOptions | undefined,
    only?: (key: string) => boolean,
  ): Promise<InputResponses> {
    const signal = inputSignal(call);
    const entries = Object.entries(requests).filter(([key]) => !only || only(key));
    const answers = await Promise.all(
      entries.map(([key, request]) =>
        answerInputRequest(handlers, s.declared, isObject(request) ? request : {}, {
          signal,
          era: s.era,
          serverInfo: s.serverInfo,
          key,
        }),
      ),
    );
    const out: InputResponses = {};
    entries.forEach(([key], i) => {
      out[key] = answers[i]!;
    });
    return out;
  }

  /**
   * A request that may end in `input_required` (tools/call, prompts/get, resources/read): answers each
   * round with the handlers and retries with a new id, the answers and the exact `requestState`.
   * @see SPEC.md §3.7 MRTR
   */
  async function withInput(
    method: string,
    base: Record<string, unknown>,
    call: CallOptions | undefined,
  ): Promise<Record<string, unknown>> {
    const s = liveSession() ?? (await ensureSession());
    let params = base;
    for (let round = 0; ; round++) {
      const result = await exchange(s, method, params, call);
      if (!isObject(result)) throw new InvalidResultError(method, `${method} returned no result object`);
      if (s.era !== "modern") return result;
      const type = readResultType(result);
      if (type === ResultType.Complete) return result;
      if (type === ResultType.Task) {
        if (method !== "tools/call" || !options.tasks || typeof result.taskId !== "string") {
          throw new InvalidResultError(
            method,
            `The server answered ${method} with a task the client did not ask for`,
          );
        }
        return pollTask(s, result.taskId, call);
      }
      if (type === ResultType.InputRequired) {
        if (round >= maxInputRounds) {
          throw new InputRequestError(
            `${method} still needed input after ${maxInputRounds} rounds (maxInputRounds)`,
          );
        }
        const requests = isObject(result.inputRequests) ? (result.inputRequests as InputRequests) : undefined;
        const state = typeof result.requestState === "string" ? result.requestState : undefined;
        if (!requests && state === undefined) {
          throw new InvalidResultError(
            method,
            "An input_required result carried neither inputRequests nor requestState",
          );
        }
        // inputResponses and requestState belong to this retry only; nothing carries over. @see SPEC.md §3.7
        const next: Record<string, unknown> = { ...base };
        if (requests) next.inputResponses = await fulfil(s, requests, call);
        if (state !== undefined) next.requestState = state;
        params = next;
        continue;
      }
      throw new InvalidResultError(
        method,
        `Unknown resultType ${JSON.stringify(result.resultType)} from ${method}`,
      );
    }
  }

  async function pollTask(s: Session, taskId: string, call: AwaitTaskOptions | undefined) {
    const signal = inputSignal(call);
    const answered = new Set<string>();
    for (;;) {
      const task = (await exchange(s, "tasks/get", { taskId }, call)) as DetailedTask;
      if (!isObject(task) || typeof task.status !== "string") {
        throw new InvalidResultError("tasks/get", "tasks/get returned no task");
      }
      try {
        call?.onStatus?.(task);
      } catch (error) {
        onError(error);
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
          const responses = await fulfil(s, requests, call, (key) => !answered.has(key));
          const keys = Object.keys(responses);
          if (keys.length > 0) {
            await exchange(s, "tasks/update", { taskId, inputResponses: responses }, call);
            for (const key of keys) answered.add(key);
            continue;
          }
          break;
        }
      }
      const interval = typeof task.pollIntervalMs === "number" ? task.pollIntervalMs : 1000;
      await sleep(Math.min(Math.max(interval, 10), 30_000), signal);
    }
  }

  async function listAll(kind: ListKind, call: ListOptions | undefined): Promise<unknown[]> {
    const spec = LISTS[kind];
    const cached = caches[kind];
    if (cached && !call?.refresh && !stale[kind] && cached.expires > Date.now()) return cached.items;
    const s = await ensureSession();
    const startGeneration = generation[kind];
    const items: unknown[] = [];
    const seen = new Set<string>();
    let ttl = Number.POSITIVE_INFINITY;
    let cursor: string | undefined;
    do {
      const page = await exchange(s, spec.method, cursor === undefined ? {} : { cursor }, call);
      if (!isObject(page))
        throw new InvalidResultError(spec.method, `${spec.method} returned no result object`);
      if (s.era === "modern" && readResultType(page) !== ResultType.Complete) {
        throw new InvalidResultError(spec.method, `Unexpected resultType ${JSON.stringify(page.resultType)}`);
      }
      const list = page[spec.key];
      if (!Array.isArray(list))
        throw new InvalidResultError(spec.method, `${spec.method} returned no "${spec.key}" list`);
      items.push(...list);
      if (s.era === "modern") {
        const pageTtl = typeof page.ttlMs === "number" && page.ttlMs > 0 ? page.ttlMs : 0;
        ttl = Math.min(ttl, pageTtl);
      } else {
        // Legacy results carry no TTL: keep them until list_changed, if the server promises to send it.
        const capability = s.serverCapabilities[spec.capability] as { listChanged?: boolean } | undefined;
        if (capability?.listChanged !== true) ttl = 0;
      }
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
      if (cursor !== undefined) {
        if (seen.has(cursor))
          throw new InvalidResultError(spec.method, `${spec.method} repeated the cursor ${cursor}`);
        seen.add(cursor);
      }
    } while (cursor !== undefined);
    let result = items;
    if (kind === "tools") result = acceptTools(s, items as Tool[]);
    // A list_changed that arrived while we listed means this list may already be old: do not cache it.
    if (generation[kind] === startGeneration) {
      stale[kind] = false;
      if (ttl > 0) caches[kind] = { items: result, expires: Date.now() + ttl };
      else delete caches[kind];
    }
    return result;
  }

  function acceptTools(s: Session, tools: Tool[]): Tool[] {
    let kept = tools;
    if (s.era === "modern" && s.httpLike) {
      // Over HTTP a tool whose x-mcp-header annotations are invalid must be dropped. @see SPEC.md §3.11
      kept = tools.filter((tool) => {
        const problem = isObject(tool) ? findXMcpHeaderProblem(tool.inputSchema) : "not an object";
        if (problem)
          onError(new InvalidResultError("tools/list", `Dropped tool "${tool?.name}": ${problem}`));
        return problem === undefined;
      });
    }
    toolIndex = new Map(
      kept.filter((t) => isObject(t) && typeof t.name === "string").map((t) => [t.name, t]),
    );
    validators.reset(kept);
    return kept;
  }

  // ---- notifications and subscriptions --------------------------------------------------------

  function handleNotification(s: Session, method: string, params: Record<string, unknown>): void {
    for (const kind of STALE_KIND[method] ?? []) {
      stale[kind] = true;
      generation[kind]++;
      delete caches[kind];
    }
    if (method === "notifications/message") {
      try {
        options.onLog?.(params as unknown as LoggingMessageNotificationParams);
      } catch (error) {
        onError(error);
      }
    }
    const meta = isObject(params._meta) ? params._meta : undefined;
    const tag = meta?.[MetaKey.SubscriptionId];
    const tagged =
      typeof tag === "string" || typeof tag === "number" ? s.listens.get(String(tag)) : undefined;
    if (method === "notifications/subscriptions/acknowledged") {
      const honoured = isObject(params.notifications) ? (params.notifications as SubscriptionFilter) : {};
      const target = tagged ?? [...s.listens.values()][0];
      target?.acknowledge(honoured);
    } else if (method === "notifications/cancelled") {
      const id = params.requestId;
      const sub = typeof id === "string" || typeof id === "number" ? s.listens.get(String(id)) : undefined;
      // The server tore a listen stream down (stdio): end it; the pending request is dropped with it.
      sub?.subscription.close().catch(onError);
    } else if (method !== "notifications/progress" && method !== "notifications/message") {
      const notification = { method, params };
      if (tagged) tagged.push(notification);
      else if (tag === undefined) {
        for (const sub of s.subs) if (matchesFilter(sub.filter, method, params)) sub.push(notification);
      }
    }
    try {
      options.onNotification?.({ method, params });
    } catch (error) {
      onError(error);
    }
  }

  function subscribe(filter: SubscriptionFilter): Subscription {
    const copy: SubscriptionFilter = structuredClone(filter ?? {});
    let stop: () => Promise<void> = async () => {};
    const control = createSubscription(copy, () => stop());
    (async () => {
      const s = await ensureSession();
      if (control.ended) return;
      s.subs.add(control);
      if (s.era === "modern") {
        const controller = new AbortController();
        let key: string | undefined;
        stop = async () => {
          controller.abort(new ConnectionClosedError("The subscription was closed"));
        };
        exchange(
          s,
          "subscriptions/listen",
          { notifications: copy },
          {
            timeout: Number.POSITIVE_INFINITY,
            maxTotalTimeout: Number.POSITIVE_INFINITY,
            signal: controller.signal,
          },
          false,
          (id) => {
            // Registered before the request leaves: the acknowledgement is tagged with this id.
            key = String(id);
            s.listens.set(key, control);
          },
        ).then(
          () => control.end(),
          (error: unknown) => control.end(controller.signal.aborted ? undefined : (error as Error)),
        );
        void control.whenEnded.then(() => {
          if (key !== undefined) s.listens.delete(key);
          s.subs.delete(control);
        });
        return;
      }
      const uris = [...new Set(copy.resourceSubscriptions ?? [])];
      const acquired: string[] = [];
      stop = async () => {
        s.subs.delete(control);
        await Promise.all(acquired.map((uri) => releaseResource(s, uri)));
      };
      try {
        for (const uri of uris) {
          await acquireResource(s, uri);
          acquired.push(uri);
          if (control.ended) {
            await stop();
            return;
          }
        }
        control.acknowledge(copy);
      } catch (error) {
        await stop().catch(onError);
        throw error;
      }
    })().catch((error: unknown) => control.end(error instanceof Error ? error : new Error(String(error))));
    return control.subscription;
  }

  async function acquireResource(s: Session, uri: string): Promise<void> {
    const count = s.resourceRefs.get(uri) ?? 0;
    s.resourceRefs.set(uri, count + 1);
    if (count > 0) return;
    try {
      await exchange(s, "resources/subscribe", { uri }, undefined);
    } catch (error) {
      s.resourceRefs.set(uri, (s.resourceRefs.get(uri) ?? 1) - 1);
      throw error;
    }
  }

  async function releaseResource(s: Session, uri: string): Promise<void> {
    const count = (s.resourceRefs.get(uri) ?? 0) - 1;
    if (count > 0) {
      s.resourceRefs.set(uri, count);
      return;
    }
    s.resourceRefs.delete(uri);
    if (s.dead || state !== "open") return;
    await exchange(s, "resources/unsubscribe", { uri }, undefined).catch(onError);
  }

  // ---- the client object ----------------------------------------------------------------------

  async function close(): Promise<void> {
    closePromise ??= (async () => {
      const wasConnecting = state === "connecting";
      state = "closing";
      const error = new ConnectionClosedError("The client was closed");
      if (lock) {
        // Queued calls fail now; the exchange in flight may finish. @see ClientOptions.serialize
        lock.shut(error);
        await lock.whenFree();
      }
      state = "closed";
      lifetime.abort(error);
      const s = session;
      if (s) {
        for (const sub of [...s.subs]) sub.end();
        s.subs.clear();
      }
      await closeSession(s);
      if (wasConnecting) await Promise.resolve();
    })();
    return closePromise;
  }

  const client: Client = {
    async connect(source, connectOptions = {}) {
      if (state !== "new") {
        throw new Error(
          state === "closed" || state === "closing"
            ? "connect() on a closed client: create a new client"
            : "connect() was called twice: a client connects once (it reconnects by itself with autoRespawn)",
        );
      }
      state = "connecting";
      try {
        plan = normalizeSource(source);
        serverKey = connectOptions.serverKey;
        if (serverKey !== undefined) remembered = eraCache.get(serverKey);
        const s = await establish(plan, connectOptions.signal);
        if (state !== "connecting") {
          await closeSession(s);
          throw new ConnectionClosedError("The client was closed while connecting");
        }
        settle(s);
        state = "open";
      } catch (error) {
        if (state === "connecting") state = "new";
        throw error;
      }
    },
    listTools: (call) => listAll("tools", call) as Promise<Tool[]>,
    listResources: (call) => listAll("resources", call) as Promise<Resource[]>,
    listResourceTemplates: (call) => listAll("resourceTemplates", call) as Promise<ResourceTemplate[]>,
    listPrompts: (call) => listAll("prompts", call) as Promise<Prompt[]>,
    async callTool(name, args, call) {
      const base: Record<string, unknown> = args === undefined ? { name } : { name, arguments: args };
      const raw = await withInput("tools/call", base, call);
      const result = toToolResult(raw);
      if (!result.isError && validators.has(name)) await validators.check(name, result.structured);
      return result;
    },
    async readResource(uri, call) {
      return (await withInput("resources/read", { uri }, call)) as unknown as ReadResourceResult;
    },
    async getPrompt(name, args, call) {
      const base: Record<string, unknown> = args === undefined ? { name } : { name, arguments: args };
      return (await withInput("prompts/get", base, call)) as unknown as GetPromptResult;
    },
    async complete(ref, argument, context, call) {
      const s = await ensureSession();
      const params: Record<string, unknown> =
        context === undefined ? { ref, argument } : { ref, argument, context };
      const result = await exchange(s, "completion/complete", params, call);
      if (!isObject(result) || !isObject(result.completion)) {
        throw new InvalidResultError("completion/complete", "completion/complete returned no completion");
      }
      return result.completion as unknown as Completion;
    },
    async ping(call) {
      const s = await ensureSession();
      await exchange(s, s.era === "modern" ? "server/discover" : "ping", {}, call);
    },
    async setLogLevel(level, call) {
      if (!isLoggingLevel(level)) throw new RangeError(`Unknown log level ${JSON.stringify(level)}`);
      logLevel = level;
      const s = await ensureSession();
      if (s.era === "legacy") await exchange(s, "logging/setLevel", { level }, call);
    },
    subscribe,
    async getTask(taskId, call) {
      const s = await ensureSession();
      const task = await exchange(s, "tasks/get", { taskId }, call);
      if (!isObject(task) || typeof task.status !== "string") {
        throw new InvalidResultError("tasks/get", "tasks/get returned no task");
      }
      return task as unknown as TaskInfo;
    },
    async updateTask(taskId, inputResponses, call) {
      const s = await ensureSession();
      if (s.era !== "modern") {
        throw new Error(
          "tasks/update belongs to the tasks extension (2026-07-28); legacy tasks take input as requests",
        );
      }
      await exchange(s, "tasks/update", { taskId, inputResponses }, call);
    },
    async cancelTask(taskId, call) {
      const s = await ensureSession();
      await exchange(s, "tasks/cancel", { taskId }, call);
    },
    async awaitTask(taskId, call) {
      const s = await ensureSession();
      if (s.era === "legacy") {
        // 2025-11-25 `tasks/result` blocks until the task ends and returns the underlying result.
        const blocking: CallOptions = { timeout: Number.POSITIVE_INFINITY, ...call };
        return toToolResult(await exchange(s, "tasks/result", { taskId }, blocking));
      }
      return toToolResult(await pollTask(s, taskId, call));
    },
    async request(method, params, call) {
      const s = await ensureSession();
      return exchange(s, method, params, call);
    },
    close,
    [Symbol.asyncDispose]: close,
    get serverInfo() {
      return session?.serverInfo;
    },
    get capabilities() {
      return session?.serverCapabilities;
    },
    get instructions() {
      return session?.instructions;
    },
    get protocolVersion() {
      return session?.version;
    },
    get era() {
      return session?.era;
    },
    get toolsStale() {
      return stale.tools;
    },
    get promptsStale() {
      return stale.prompts;
    },
    get resourcesStale() {
      return stale.resources;
    },
    get transport() {
      return session?.inner;
    },
  };
  return client;
}
