import type { Implementation, RequestParams, Result } from "./base.js";
import type { ClientCapabilities, ServerCapabilities } from "./capabilities.js";

/**
 * Params of `initialize` (legacy era only; removed in 2026-07-28). The client sends the latest version
 * it supports.
 * @see SPEC.md §4.1
 */
export interface InitializeRequestParams extends RequestParams {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
}

/**
 * Result of `initialize`: the version the server chose (the client's if supported, else the server's
 * latest), its capabilities and identity. The client then sends `notifications/initialized`.
 */
export interface InitializeResult extends Result {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}
