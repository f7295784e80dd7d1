/**
 * Reserved `_meta` keys. The `io.modelcontextprotocol/` ones belong to 2026-07-28 except `RelatedTask`
 * (2025-11-25 experimental tasks); `ProgressToken` exists in every version; the trace keys are W3C trace
 * context names, carried as-is.
 * @see SPEC.md §3.3
 */
export const MetaKey = {
  /** Request: the protocol version of this request (required in 2026-07-28). */
  ProtocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** Request: the client's capabilities for this request (required in 2026-07-28). */
  ClientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** Request: the client's `Implementation` (SHOULD in 2026-07-28). */
  ClientInfo: "io.modelcontextprotocol/clientInfo",
  /** Request: the lowest level of `notifications/message` wanted for this request (2026-07-28). */
  LogLevel: "io.modelcontextprotocol/logLevel",
  /** Notification and listen result: the id of the `subscriptions/listen` request (2026-07-28). */
  SubscriptionId: "io.modelcontextprotocol/subscriptionId",
  /** Result: the server's `Implementation` (SHOULD in 2026-07-28). */
  ServerInfo: "io.modelcontextprotocol/serverInfo",
  /** Request: token for `notifications/progress` (every version). */
  ProgressToken: "progressToken",
  /** Any message belonging to a 2025-11-25 task: `{ taskId }`. */
  RelatedTask: "io.modelcontextprotocol/related-task",
  /** 2025-11-25 `CreateTaskResult`: an optional string for the model to use right away. */
  ModelImmediateResponse: "io.modelcontextprotocol/model-immediate-response",
  /** W3C trace context. */
  TraceParent: "traceparent",
  /** W3C trace context. */
  TraceState: "tracestate",
  /** W3C baggage. */
  Baggage: "baggage",
} as const;

/** A reserved `_meta` key. */
export type MetaKey = (typeof MetaKey)[keyof typeof MetaKey];

/**
 * Identifier of the tasks extension, the key of its entry in `capabilities.extensions`.
 * @see SPEC.md §3.13
 */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/**
 * Whether a `_meta` key is in a prefix reserved for the spec: one whose second label is `modelcontextprotocol`
 * or `mcp` (e.g. `io.modelcontextprotocol/x`, `dev.mcp/x`).
 */
export function isReservedMetaKey(key: string): boolean {
  const slash = key.indexOf("/");
  if (slash < 0) return false;
  const labels = key.slice(0, slash).split(".");
  return labels[1] === "modelcontextprotocol" || labels[1] === "mcp";
}
