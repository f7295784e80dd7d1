import type {
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  MessageInfo,
  Transport,
} from "@mcpkit/jsonrpc";

/**
 * What the handler hands a server with one 2026-07-28 request: its message info, the signal that the
 * request's response stream closing aborts, and the way to send notifications on that stream.
 */
export interface ModernRequestContext {
  /** What the handler knows about the message (`HttpMessageInfo`: headers, `httpRequest`, `authInfo`). */
  readonly info: MessageInfo;
  /** Aborted when the client closes the response stream (the 2026-07-28 cancellation) or the handler closes. */
  readonly signal: AbortSignal;
  /**
   * Sends one notification of the request before its response (the reply then becomes an SSE stream).
   * @throws ConnectionClosedError once the response was sent or the client went away.
   */
  notify(message: JsonRpcNotification): void;
}

/**
 * A legacy session's state shared with the other instances through the handler's `sessionStore`, as
 * the handler gives it to the app (`HttpConnectionInfo.sharedSession`) for the server to restore and write
 * back: `@mcpkit/server`'s `SharedSession` seam, matched structurally. The fields belong to the server;
 * the handler stores them as they are and does NOT interpret them.
 */
export interface SharedSessionState {
  /** The fields as last read from the store (refreshed before each message of the session is delivered). */
  readonly fields: Readonly<Record<string, string>>;
  /** The prefix for the ids of requests this instance sends in the session, so answers are routed back. */
  readonly requestIdPrefix: string;
  /** Registers the listener told when another instance changed `fields` (before the next message). */
  onChange(listener: () => void): void;
  /** Sets fields (a string) and removes them (`null`); resolves once the store has them. */
  write(changes: Record<string, string | null>): Promise<void>;
}

/**
 * The MCP server a Streamable HTTP handler serves, as the handler sees it: structural on purpose, so
 * this package does not import `@mcpkit/server` (whose `Server` fits) and any server with these two
 * methods can be served.
 *
 * `handle` answers one 2026-07-28 request (or notification) as a function call: the response, or
 * undefined when there is none to send (a notification, a cancelled request). It may answer
 * synchronously. Its errors are JSON-RPC error responses; the handler maps them to HTTP statuses by code
 * alone. A throw or rejection is a local failure: the client gets a generic 500.
 *
 * `connect` serves one legacy session's transport (alive until DELETE or expiry); with a `sessionStore`,
 * its options carry the session's {@link SharedSessionState}.
 */
export interface ServerLike {
  handle(
    message: JsonRpcRequest | JsonRpcNotification,
    context: ModernRequestContext,
  ): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;
  connect(transport: Transport, options?: { sharedSession?: SharedSessionState }): unknown;
}
