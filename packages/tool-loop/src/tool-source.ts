/**
 * A tool as a server lists it: the subset of MCP's `Tool` the loop and the bridges read.
 *
 * Structural on purpose: `@mcpkit/client`'s tools fit, and so do the tools of any other MCP client.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
 */
export interface ToolDescriptor {
  /** The tool's name on its server (the name `callTool` takes). */
  readonly name: string;
  /** A human-readable display name, if the server gave one. */
  readonly title?: string | undefined;
  /** What the tool does; models read this to decide when to call it. */
  readonly description?: string | undefined;
  /** The JSON Schema of the tool's arguments (an object schema). */
  readonly inputSchema?: JsonSchema | undefined;
  /** The JSON Schema of the tool's `structuredContent`, if it declares one. */
  readonly outputSchema?: JsonSchema | undefined;
  /** Behaviour hints, passed through untouched (untrusted unless the server is trusted). */
  readonly annotations?: ToolAnnotationsLike | undefined;
  /** The tool's `_meta` as listed (MCP Apps' `ui`: its view and visibility); never sent to a model. */
  readonly _meta?: { readonly [key: string]: unknown } | undefined;
}

/** MCP's tool annotations: hints about a tool's behaviour. */
export interface ToolAnnotationsLike {
  readonly title?: string | undefined;
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
}

/**
 * A JSON Schema object, as MCP carries it (draft 2020-12 unless `$schema` says otherwise).
 *
 * Kept loose: the loop never interprets schemas, it only hands them to a model.
 */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * What one tool call produced: the subset of `@mcpkit/client`'s `ToolResult` the loop reads.
 *
 * `content` is the text of the result's content parts (text joined with "\n", other parts as JSON),
 * `structured` the result's `structuredContent` verbatim, and `isError` the server's verdict. A tool
 * failure is data here, not a throw.
 */
export interface ToolCallOutcome {
  /** The result's content as one string. */
  readonly content: string;
  /** The result's `structuredContent`, if any. */
  readonly structured?: unknown;
  /** True when the tool reported a failure (`isError: true`). */
  readonly isError?: boolean | undefined;
}

/** A progress notification of a running tool call (MCP's `notifications/progress` params). */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/** What {@link ToolSource.subscribe} returns: the notifications, a way to stop, and the server's ack. */
export interface ToolSourceSubscription extends AsyncIterable<{ readonly method: string }> {
  /** Resolves once the server honours the subscription; rejects if it refused. */
  readonly acknowledged?: Promise<unknown>;
  /** Ends the subscription. */
  close(): Promise<void>;
}

/** Options for {@link ToolSource.listTools} and {@link ToolSource.callTool}. */
export interface ToolSourceCallOptions {
  /** Aborts the request; the returned promise then rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
  /** `callTool`: receives the call's progress notifications (`@mcpkit/client` honours it). */
  // Method syntax on purpose: its parameter is checked bivariantly, so a client whose progress type
  // carries more fields (`@mcpkit/client`'s `ProgressParams`) still fits.
  onProgress?(progress: ToolProgress): void;
  /** `listTools`: bypass a cached list (`@mcpkit/client` honours it). */
  readonly refresh?: boolean | undefined;
}

/**
 * The two methods of an MCP client the tool loop needs: list the tools, call one.
 *
 * `@mcpkit/client`'s client is a `ToolSource` as it is; a test fake, or another library's client behind
 * a three-line adapter, stands in just as well. `listTools` may answer with the tools or with a page
 * object carrying them (`{ tools }`); both are read.
 */
export interface ToolSource {
  /**
   * True after the server said its tool list changed (`notifications/tools/list_changed`) until the
   * next `listTools`. Optional: `@mcpkit/client` has it; a live aggregation re-lists a source that
   * reports it before the loop's next model call.
   */
  readonly toolsStale?: boolean | undefined;
  /**
   * A stream of the server's notifications matching `filter`. Optional: `@mcpkit/client` has it (over
   * `subscriptions/listen` in the 2026 era, the legacy notifications before). A live aggregation
   * (`aggregateTools(…, { live: true })`) listens for `notifications/tools/list_changed` through it.
   */
  subscribe?(filter: { toolsListChanged?: boolean }): ToolSourceSubscription;
  /** Every tool the server offers (all pages). */
  listTools(
    options?: ToolSourceCallOptions,
  ): Promise<readonly ToolDescriptor[] | { readonly tools: readonly ToolDescriptor[] }>;
  /**
   * Calls one tool by its name on the server.
   *
   * Resolves with the result even when the tool failed (`isError`); rejects only for local trouble
   * (connection gone, abort, timeout) or a protocol error.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: ToolSourceCallOptions,
  ): Promise<ToolCallOutcome>;
}
