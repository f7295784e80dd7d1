import type { CacheScope, RequestParams, ResultMeta, ResultTypeName } from "./base.js";
import type { ServerCapabilities } from "./capabilities.js";

/** Params of `server/discover` (2026-07-28): only `_meta`. */
export interface DiscoverRequestParams extends RequestParams {}

/**
 * Result of `server/discover` (2026-07-28), which every modern server must implement. A client that gets
 * one knows the server is modern; it is cacheable like the lists.
 * @see SPEC.md §3.4
 */
export interface DiscoverResult {
  resultType: ResultTypeName;
  /** SHOULD carry `io.modelcontextprotocol/serverInfo`. */
  _meta?: ResultMeta;
  /** Protocol versions the server supports; the client picks one for its requests. */
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  /** How to use the server, e.g. for a model's system prompt. */
  instructions?: string;
  ttlMs: number;
  cacheScope: CacheScope;
}
