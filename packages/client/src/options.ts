import type { ProgressParams } from "@mcpkit/jsonrpc";
import {
  type ClientCapabilities,
  type DetailedTask,
  type Implementation,
  isLegacyVersion,
  isModernVersion,
  type JsonSchemaValidator,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  type LoggingMessageNotificationParams,
} from "@mcpkit/protocol";
import { defaultEraCache, type EraCache } from "./era-cache.js";
import type { InputHandlers } from "./input.js";
import type { ClientLink } from "./links/link.js";
import type { ClientObservability } from "./observability.js";
import { checkTimeout, type RequestConfig } from "./request-config.js";
import type { ResponseCacheOptions } from "./response-cache.js";
import type { SubscriptionNotification } from "./subscription.js";
import type { OutputValidation } from "./tool-call.js";

/** How {@link Client.connect} picks the protocol era. */
export type VersionNegotiation = "auto" | "modern" | "legacy";

/** Options of {@link createClient}; `telemetry`, `trace` and `onMessage` are in {@link ClientObservability}. */
export interface ClientOptions extends ClientObservability {
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
  /**
   * A preferred version of its era (default: the latest of each era). Given, it wins over the era cache:
   * nothing remembered of the server replaces it (an explicit `versionNegotiation` likewise takes only a
   * remembered entry of its own era).
   */
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
  /**
   * Links of the app's own on the request path (logging, caching, an auth retry), outermost first, in
   * the manner of tRPC's links: each gets every request and the rest of the chain (see {@link ClientLink}).
   * They sit below the MRTR rounds (each round and each task poll passes them on its own) and above the
   * client's retries, turn, envelope and timeouts. Default: none.
   */
  links?: readonly ClientLink[];
  /** How many `input_required` rounds one call may take (default 10). */
  maxInputRounds?: number;
  /** Declare the tasks extension (2026-07-28) so the server may answer `tools/call` with a task. */
  tasks?: boolean;
  /**
   * The response cache: list and `resources/read` results kept for as long as the server's cache hints
   * (`ttlMs`, `cacheScope`) allow, per server, dropped by the matching `list_changed` and
   * `resources/updated` notifications. Default on, in memory, 256 entries for this client; give a `store`
   * to share it, `false` to turn it off (every list and read goes to the server).
   * @see SPEC.md §3.9 Caching
   */
  cache?: false | ResponseCacheOptions;
  /** Remembers the era per server key (see {@link ConnectOptions.serverKey}); default: a shared in-memory map. */
  eraCache?: EraCache;
  /** `notifications/message` from the server (legacy: after `setLogLevel`; modern: for requests made after it). */
  onLog?: (params: LoggingMessageNotificationParams) => void;
  /** Every notification from the server, after the client handled it. */
  onNotification?: (notification: SubscriptionNotification) => void;
  /** Problems nobody awaits: a dropped tool, a throwing callback, a late answer. */
  onError?: (error: Error) => void;
  /**
   * Runs once when the client closes, after its session closed (also when that failed): release what the
   * app made for this client (a fetch's keep-alive sockets, a spawned helper). `close()` waits for it, and
   * rejects with what it threw.
   */
  onClose?: () => void | Promise<void>;
  /**
   * The JSON Schema validator that checks a tool's `structuredContent` against its `outputSchema`.
   * Default: `createJsonSchemaValidator()` from `@mcpkit/json-schema` (imported on the first check), the one
   * the server uses too: a built-in
   * validator for the common keywords, with ajv loaded only when a schema needs more; it never fetches a
   * `$ref`. Supply your own to use another engine, e.g. one that needs no `eval` on edge runtimes where code
   * generation is forbidden. A schema it refuses makes `callTool` throw an `OutputValidationError` saying
   * the outputSchema cannot be used.
   */
  validator?: JsonSchemaValidator;
  /**
   * What a `structuredContent` that does not match the tool's `outputSchema` does: `error` (default)
   * throws `OutputValidationError`, `warn` reports it to `onError` and returns the result, `off` skips the
   * check. A call can override it (`callTool(name, args, { outputValidation })`).
   */
  outputValidation?: OutputValidation;
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

/** Options of {@link Client.readResource}. */
export interface ReadOptions extends CallOptions {
  /** Ignore the cache and read the resource again. */
  refresh?: boolean;
}

/** Options of {@link Client.awaitTask}. */
export interface AwaitTaskOptions extends CallOptions {
  /** Called with each polled state of the task. */
  onStatus?: (task: DetailedTask) => void;
}

/** @internal {@link ClientOptions} checked once and with every default filled in. */
export interface ClientSettings {
  readonly options: ClientOptions;
  /** The session-wide request settings (`requestTimeout`, `maxTotalTimeout`, `resetTimeoutOnProgress`). */
  readonly requestConfig: RequestConfig;
  readonly connectTimeout: number;
  readonly probeTimeout: number;
  readonly maxInputRounds: number;
  readonly negotiation: VersionNegotiation;
  readonly preferredModern: string;
  readonly preferredLegacy: string;
  /** A copy of the handlers: the app cannot add one after the capabilities were declared. */
  readonly handlers: InputHandlers;
  readonly clientInfo: Implementation;
  readonly eraCache: EraCache;
  /** `options.onError`, made safe: a throwing error callback must not take the client down. */
  readonly onError: (error: unknown) => void;
}

const DEFAULT_CONNECT_TIMEOUT = 30_000;
const DEFAULT_PROBE_TIMEOUT = 10_000;
const DEFAULT_MAX_INPUT_ROUNDS = 10;

/**
 * @internal Checks {@link ClientOptions} and fills in the defaults.
 * @throws TypeError without `name` and `version`; RangeError on a timeout that is NaN, 0 or negative,
 *   a bad `maxInputRounds` or `versionNegotiation`, or a `protocolVersion` mcpkit does not speak.
 */
export function resolveSettings(options: ClientOptions): ClientSettings {
  if (!options || typeof options.name !== "string" || typeof options.version !== "string") {
    throw new TypeError("createClient() needs { name, version }");
  }
  const requestConfig: RequestConfig = {};
  if (options.requestTimeout !== undefined) {
    checkTimeout("requestTimeout", options.requestTimeout);
    requestConfig.timeout = options.requestTimeout;
  }
  if (options.maxTotalTimeout !== undefined) {
    checkTimeout("maxTotalTimeout", options.maxTotalTimeout);
    requestConfig.maxTotalTimeout = options.maxTotalTimeout;
  }
  if (options.resetTimeoutOnProgress !== undefined) {
    requestConfig.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
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
  const clientInfo: Implementation = { name: options.name, version: options.version };
  if (options.title !== undefined) clientInfo.title = options.title;
  return {
    options,
    requestConfig,
    connectTimeout,
    probeTimeout,
    maxInputRounds,
    negotiation,
    preferredModern,
    preferredLegacy,
    handlers: { ...options.handlers },
    clientInfo,
    eraCache: options.eraCache ?? defaultEraCache,
    onError: (error: unknown) => {
      try {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
      } catch {
        // A throwing error callback must not take the client down.
      }
    },
  };
}
