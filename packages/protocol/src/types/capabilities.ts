import type { JsonObject } from "./base.js";

/**
 * Settings of one extension, keyed by its identifier (e.g. `io.modelcontextprotocol/tasks`) in
 * `capabilities.extensions` (2026-07-28).
 */
export type ExtensionCapabilities = Record<string, JsonObject>;

/**
 * What a client supports. Legacy: sent once in `initialize`. 2026-07-28: sent on every request in
 * `_meta["io.modelcontextprotocol/clientCapabilities"]`.
 * @see SPEC.md §3.6, §4.3
 */
export interface ClientCapabilities {
  /** Non-standard capabilities. */
  experimental?: Record<string, JsonObject>;
  /** Roots (deprecated in 2026-07-28). `listChanged` is legacy only (there is no notification in 2026-07-28). */
  roots?: { listChanged?: boolean };
  /** Sampling (deprecated in 2026-07-28). `context` and `tools` arrived in 2025-11-25. */
  sampling?: { context?: JsonObject; tools?: JsonObject };
  /**
   * Elicitation (2025-06-18+). Modes arrived in 2025-11-25; an empty object means form mode only.
   */
  elicitation?: { form?: JsonObject; url?: JsonObject };
  /** 2025-11-25 only: experimental tasks. */
  tasks?: LegacyClientTasksCapability;
  /** 2026-07-28: extensions the client supports, with their settings. */
  extensions?: ExtensionCapabilities;
}

/**
 * What a server supports. Legacy: returned by `initialize`. 2026-07-28: returned by `server/discover`.
 * @see SPEC.md §3.6, §4.3
 */
export interface ServerCapabilities {
  experimental?: Record<string, JsonObject>;
  /** The server emits log messages (deprecated in 2026-07-28). */
  logging?: JsonObject;
  /** The server answers `completion/complete` (2025-03-26+). */
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  /**
   * `subscribe`: legacy — the server answers `resources/subscribe`; 2026-07-28 — it honours
   * `resourceSubscriptions` in `subscriptions/listen`.
   */
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  /** 2025-11-25 only: experimental tasks. */
  tasks?: LegacyServerTasksCapability;
  /** 2026-07-28: extensions the server supports, with their settings. */
  extensions?: ExtensionCapabilities;
}

/** The client side of 2025-11-25 experimental tasks. */
export interface LegacyClientTasksCapability {
  list?: JsonObject;
  cancel?: JsonObject;
  /** Which server-to-client requests may be task-augmented. */
  requests?: {
    sampling?: { createMessage?: JsonObject };
    elicitation?: { create?: JsonObject };
  };
}

/** The server side of 2025-11-25 experimental tasks. */
export interface LegacyServerTasksCapability {
  list?: JsonObject;
  cancel?: JsonObject;
  /** Which client-to-server requests may be task-augmented. */
  requests?: { tools?: { call?: JsonObject } };
}
