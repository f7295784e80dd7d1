import type { ClientCapabilities } from "./capabilities.js";
import type { LoggingLevel } from "./logging.js";

/**
 * Any JSON value: what survives `JSON.parse(JSON.stringify(x))` unchanged.
 * @see SPEC.md §3.12 (2026-07-28 `JSONValue`)
 */
export type JsonValue = string | number | boolean | null | JsonObject | JsonArray;

/** A JSON object whose values are JSON values. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A JSON array. */
export type JsonArray = JsonValue[];

/**
 * A JSON-RPC request id as MCP allows it: a string or an integer, never `null`.
 * Unique among the sender's in-flight requests (legacy: never reused within the session).
 */
export type RequestId = string | number;

/**
 * A token the requester puts in `_meta.progressToken` to receive `notifications/progress` for that request.
 * Unique among the requester's active requests.
 */
export type ProgressToken = string | number;

/** An opaque pagination position. The empty string is a valid cursor. */
export type Cursor = string;

/** The sender or recipient of messages and content in a conversation. */
export type Role = "user" | "assistant";

/**
 * A free-form `_meta` object. Keys follow `[prefix/]name`; prefixes whose second label is
 * `modelcontextprotocol` or `mcp` (e.g. `io.modelcontextprotocol/`) are reserved for the spec.
 * @see SPEC.md §3.3
 */
export interface Meta {
  [key: string]: unknown;
}

/**
 * `_meta` of a request, for both eras. In 2026-07-28 the protocol version and client capabilities are
 * required on every request ({@link ModernRequestMeta}); in the legacy era only `progressToken` is defined.
 * @see SPEC.md §3.3
 */
export interface RequestMeta extends Meta {
  /** Opt in to `notifications/progress` for this request. */
  progressToken?: ProgressToken;
  /** 2026-07-28: the protocol version of this request. Required in the modern era. */
  "io.modelcontextprotocol/protocolVersion"?: string;
  /** 2026-07-28: the capabilities the client declares for this request. Required in the modern era. */
  "io.modelcontextprotocol/clientCapabilities"?: ClientCapabilities;
  /** 2026-07-28: self-reported client identity; clients SHOULD include it. Must not drive security decisions. */
  "io.modelcontextprotocol/clientInfo"?: Implementation;
  /** 2026-07-28: the lowest log level the client wants as `notifications/message` for this request. */
  "io.modelcontextprotocol/logLevel"?: LoggingLevel;
  /** W3C trace context `traceparent`, carried as-is (an exception to the prefix rule). */
  traceparent?: string;
  /** W3C trace context `tracestate`. */
  tracestate?: string;
  /** W3C baggage. */
  baggage?: string;
}

/**
 * `_meta` of a 2026-07-28 request: the fields every modern request must carry.
 * A request without them is answered -32602 (HTTP 400).
 */
export interface ModernRequestMeta extends RequestMeta {
  "io.modelcontextprotocol/protocolVersion": string;
  "io.modelcontextprotocol/clientCapabilities": ClientCapabilities;
}

/** `_meta` of a notification. */
export interface NotificationMeta extends Meta {
  /** 2026-07-28: on every notification of a `subscriptions/listen` stream, the id of the listen request. */
  "io.modelcontextprotocol/subscriptionId"?: RequestId;
}

/** `_meta` of a result. */
export interface ResultMeta extends Meta {
  /** 2026-07-28: self-reported server identity; servers SHOULD include it on results. */
  "io.modelcontextprotocol/serverInfo"?: Implementation;
}

/** Params every request may carry. */
export interface RequestParams {
  /** Required in 2026-07-28 (see {@link ModernRequestMeta}); optional in the legacy era. */
  _meta?: RequestMeta;
}

/** Params of a paginated list request (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`). */
export interface PaginatedRequestParams extends RequestParams {
  /** Where to continue; absent for the first page. */
  cursor?: Cursor;
}

/** Params every notification may carry. */
export interface NotificationParams {
  _meta?: NotificationMeta;
}

/**
 * The value of `resultType`. Core values are `"complete"` and `"input_required"`; extensions add their own
 * (`"task"`). An unrecognized value is invalid; an absent one means `"complete"`.
 * @see SPEC.md §3.1
 */
export type ResultTypeName = "complete" | "input_required" | "task" | (string & {});

/**
 * The base of every result.
 *
 * 2026-07-28 requires `resultType` on every result; legacy results (≤ 2025-11-25) have none, and a missing
 * value is read as `"complete"`. Shared result types therefore keep it optional; modern-only results require it.
 */
export interface Result {
  _meta?: ResultMeta;
  /** Required in 2026-07-28; absent in the legacy era. */
  resultType?: ResultTypeName;
}

/** A result with no content: the answer to `ping`, `logging/setLevel`, subscribe, tasks updates. */
export interface EmptyResult extends Result {}

/** A page of a paginated list. */
export interface PaginatedResult extends Result {
  /** The cursor of the next page; absent on the last page. */
  nextCursor?: Cursor;
}

/** Who may share a cached result: any client (`public`) or only this authorization context (`private`). */
export type CacheScope = "public" | "private";

/**
 * Cache hints on a complete result of `server/discover`, the four list methods and `resources/read`
 * (2026-07-28). Required there in the modern era; absent in the legacy era.
 * @see SPEC.md §3.9 Caching
 */
export interface CacheHints {
  /** How long, in milliseconds, the result may be reused. Absent or negative means 0. */
  ttlMs?: number;
  /** Whether the cached result may be shared across authorization contexts. */
  cacheScope?: CacheScope;
}

/** A result that carries cache hints, as every cacheable 2026-07-28 result must. */
export interface CacheableResult extends Result {
  resultType: ResultTypeName;
  ttlMs: number;
  cacheScope: CacheScope;
}

/** A name meant for programs plus an optional human-readable title (2025-06-18+). */
export interface BaseMetadata {
  /** Programmatic identifier; also the display fallback when `title` is absent. */
  name: string;
  /** Display name (2025-06-18+). */
  title?: string;
}

/**
 * An icon a client may show. `src` is an `https:` or `data:` URI; renderers must reject other schemes.
 * Added in 2025-11-25.
 */
export interface Icon {
  src: string;
  mimeType?: string;
  /** Sizes such as `"48x48"` or `"any"`. */
  sizes?: string[];
  /** The theme the icon is designed for. */
  theme?: "light" | "dark";
}

/** The optional icon list of a tool, prompt, resource, template or implementation (2025-11-25+). */
export interface Icons {
  icons?: Icon[];
}

/**
 * The name and version of an MCP client or server.
 * `title` arrived in 2025-06-18; `description`, `websiteUrl` and `icons` in 2025-11-25.
 */
export interface Implementation extends BaseMetadata, Icons {
  version: string;
  description?: string;
  websiteUrl?: string;
}

/**
 * Hints on how a client should use or show an object. Informational; never a security boundary.
 */
export interface Annotations {
  /** Who the content is meant for. */
  audience?: Role[];
  /** Importance from 0 (least) to 1 (most). */
  priority?: number;
  /** ISO 8601 time of the last change (2025-06-18+). */
  lastModified?: string;
}

/** The error object of a JSON-RPC error response. */
export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
