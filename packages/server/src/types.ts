import type { JsonRpcId, MessageInfo } from "@mcpkit/jsonrpc";
import type {
  Annotations,
  CacheScope,
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  Icon,
  Implementation,
  JsonSchema,
  JsonSchemaValidator,
  JsonValue,
  ListRootsResult,
  LoggingLevel,
  Meta,
  PromptArgument,
  PromptMessage,
  ProtocolEra,
  ReadResourceResult,
  RequestMeta,
  ServerCapabilities,
  ToolAnnotations,
} from "@mcpkit/protocol";
import type { ArgsOfJsonSchema, ReadonlyJsonSchema } from "./json-schema-types.js";
import type { NotificationBus } from "./notification-bus.js";
import type { SkillsOptions } from "./skills.js";
import type { InferOutput, JsonSchemaConverter, StandardSchemaV1 } from "./standard-schema.js";
import type { TaskStore } from "./tasks.js";
import type { ServerObservability } from "./telemetry.js";

/**
 * A schema given to the server: a JSON Schema object (2020-12 by default, draft-07 accepted; written
 * `as const` it types the handler's arguments) or any Standard Schema.
 */
export type SchemaInput = JsonSchema | ReadonlyJsonSchema | StandardSchemaV1;

/**
 * The argument type a handler receives for a schema: the Standard Schema's output, the type a literal
 * JSON Schema (`as const`) describes ({@link FromJsonSchema}), or `any`.
 */
// A JSON Schema is enforced at run time, before the handler runs (a built-in check for the common
// keywords, ajv loaded on first use for the rest). One built at run time (its `type` a mere string) has
// no TypeScript shape to read: the handler states it, so `(args: { city: string }) => …` type-checks.
export type ArgsOf<S> = S extends StandardSchemaV1 ? InferOutput<S> : ArgsOfJsonSchema<S>;

/** Where the server reports failures nobody awaits (a handler's unexpected throw, a failed send). */
export interface ServerLogger {
  error(message: string, error?: unknown): void;
}

/** Options of {@link createServer}; `telemetry`, `trace` and `onMessage` are in {@link ServerObservability}. */
export interface ServerOptions extends ServerObservability {
  /** Programmatic name, sent as `serverInfo.name`. */
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  /** How to use the server (both eras: `initialize` result and `server/discover`). */
  instructions?: string;
  /** Items per page of every list (default 100). */
  pageSize?: number;
  /** Cache hints on modern lists, `resources/read` and `server/discover` (default `{ ttlMs: 0, scope: "public" }`). */
  cache?: { ttlMs?: number; scope?: CacheScope };
  /**
   * The HMAC key protecting MRTR `requestState` tokens, or a key ring: an array whose first key seals
   * and whose every key opens (the current key first, then previous ones, so keys rotate without breaking
   * rounds in flight). Text keys are used as their UTF-8 bytes. Give the same key or ring to every instance
   * behind a load balancer; default: a random key per server (tokens do not survive a restart). An empty
   * array is a RangeError.
   */
  requestStateKey?: string | Uint8Array | readonly (string | Uint8Array)[];
  /** How long a `requestState` token stays valid (default 10 minutes). */
  requestStateTtlMs?: number;
  /** Converts Standard Schemas that lack Standard JSON Schema support. */
  toJsonSchema?: JsonSchemaConverter;
  /**
   * The JSON Schema validator for tool arguments, prompt arguments and the server's own
   * `structuredContent` (Standard Schemas validate themselves). Default: `createJsonSchemaValidator()` from
   * `@mcpkit/protocol`, the built-in validator for the common keywords with ajv loaded only for a schema
   * that needs more; it never fetches a `$ref`. Supply your own to use another engine, for example an
   * eval-free one where code generation is forbidden (edge runtimes). One instance serves every schema of
   * the server; `compile` runs at registration, and its TypeError fails the registration (the server
   * prefixes which schema it is).
   */
  validator?: JsonSchemaValidator;
  /**
   * Carries `notifyResourceUpdated`, list changes and task status to the other instances of this server
   * behind a load balancer, and theirs to this one's clients (listen streams and subscribed legacy
   * sessions), e.g. `createRedisBus` of `@mcpkit/redis`. This instance's own clients are told directly, as
   * without a bus; a failed publish is logged and tells the others nothing. Default: none (one process,
   * nothing leaves it). The server subscribes at creation and unsubscribes on `close()`; it never closes
   * the bus.
   */
  bus?: NotificationBus;
  /** Tasks extension settings; the extension is offered when a tool declares `taskSupport`. */
  tasks?: { store?: TaskStore; ttlMs?: number; pollIntervalMs?: number };
  /**
   * Skills extension settings (`io.modelcontextprotocol/skills`, 2026-07-28). Given, the extension is
   * declared from the start (an empty listing is allowed); without it, once a skill is registered.
   */
  skills?: SkillsOptions;
  /** Capabilities to declare on top of those the registry implies (e.g. `experimental`, `extensions`). */
  capabilities?: ServerCapabilities;
  /** Timeout of server-to-client requests in a legacy session (default 60 s). */
  requestTimeout?: number;
  /**
   * Most requests from the client in flight at once on one connection (a stdio pipe, a legacy session, an
   * in-memory pair), counted from arrival until the handler settles. One more is answered at once with
   * -32600 "Too many requests…" (`data: { limit: "maxConcurrentRequestsPerConnection", value }`), the
   * logger gets a line naming the limit (once per burst), and the connection and its other requests go on.
   * Default 100 (as the HTTP handler's per-session limit). Over HTTP the handler's own
   * limits (`maxConcurrentRequestsPerSession`: 429; `maxConcurrentRequests`: 503) apply first, and a modern
   * request is a connection of its own.
   * @throws RangeError (from `createServer`) when it is not a whole number of at least 1.
   */
  maxConcurrentRequestsPerConnection?: number;
  /** Receives unexpected failures (default: `console.error`). Nothing logged here reaches a client. */
  logger?: ServerLogger;
}

/**
 * Shared stores for a server run as one of several instances behind a load balancer, handed over with
 * `Server.useStores` (e.g. what `redisStore()` of `@mcpkit/redis` returns fits). Each is the same as its
 * `ServerOptions` counterpart: `tasks` is `ServerOptions.tasks.store`, `bus` is `ServerOptions.bus`,
 * `requestStateKey` is `ServerOptions.requestStateKey`. An absent (undefined) entry leaves the server's
 * own setting as it is.
 */
export interface ServerStores {
  tasks?: TaskStore | undefined;
  bus?: NotificationBus | undefined;
  requestStateKey?: ServerOptions["requestStateKey"] | undefined;
}

/** Options of an input call (`elicit`, `sample`, `listRoots`). */
export interface InputOptions {
  /**
   * The key of this input request in a modern `input_required` result (default `elicit-0`, `sample-0`,
   * `roots-0`… in call order). Keys must be unique within one request.
   */
  key?: string;
  /** Timeout of the server-to-client request in a legacy session. */
  timeout?: number;
}

/** Values a handler keeps across MRTR rounds; sealed into `requestState`. */
export interface RequestStateValues {
  get(key: string): JsonValue | undefined;
  set(key: string, value: JsonValue): void;
}

/** The client as this request sees it. */
export interface ClientView {
  readonly info: Implementation | undefined;
  readonly capabilities: ClientCapabilities;
}

/**
 * What every handler receives besides its arguments. The same code works in both eras: `elicit`,
 * `sample` and `listRoots` send a server-to-client request in a legacy session, and in a modern request
 * end the attempt with an `input_required` result, the client's retry re-running the handler.
 */
export interface HandlerContext {
  readonly era: ProtocolEra;
  readonly protocolVersion: string;
  readonly method: string;
  readonly requestId: JsonRpcId;
  /** Aborted by a peer cancel, a closed HTTP response stream, a closed connection or `tasks/cancel`. */
  readonly signal: AbortSignal;
  readonly client: ClientView;
  /** `params._meta` of the request (empty object when absent). */
  readonly meta: RequestMeta;
  /** What the transport knows of the message (headers, HTTP request, auth claims), untouched. */
  readonly transportInfo: MessageInfo | undefined;
  /** `transportInfo.authInfo`, when the transport verified a token. */
  readonly authInfo: unknown;
  /** Handler state carried across MRTR rounds (modern) or kept for this call (legacy). */
  readonly state: RequestStateValues;
  /** The task this handler runs as, once it does (tasks extension). */
  readonly task: { readonly id: string } | undefined;
  /** Sends `notifications/progress` when the request carried a `progressToken`; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends `notifications/message` when the level in force allows it: the session's `logging/setLevel`
   * (legacy; everything before one) or the request's `_meta` logLevel (modern; nothing without one).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the user (form or URL mode).
   * @throws McpError -32021 (modern) or an Error (legacy) when the client did not declare the capability.
   */
  elicit(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  /** Asks the client's model for a completion (deprecated in 2026-07-28, still functional). */
  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** Asks the client for its roots (deprecated in 2026-07-28, still functional). */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
  /**
   * For a tool registered with `taskSupport` and `taskMode: "manual"`: turns the rest of this call into a
   * task. The client gets a `CreateTaskResult` now; the handler's eventual result goes to the task.
   * Resolves `true` when the call now runs as a task, `false` when it cannot (legacy session, or the
   * client did not declare the tasks extension) and goes on synchronously.
   */
  startTask(): Promise<boolean>;
}

/**
 * What a tool handler may return: a string (one text block), an array of content blocks, a full
 * `CallToolResult` (an object whose `content` is an array of blocks), or any other JSON value, which
 * becomes `structuredContent` plus its JSON as text.
 */
export type ToolReturn = string | ContentBlock[] | CallToolResult | JsonValue | object | undefined;

/** A tool handler. A throw becomes an `isError: true` result with the message; an `McpError` is sent as is. */
export type ToolHandler<A = Record<string, unknown>> = (
  args: A,
  context: HandlerContext,
) => ToolReturn | Promise<ToolReturn>;

/** How a tool runs under the tasks extension. */
export type TaskSupport = "forbidden" | "optional" | "required";

/** Configuration of a tool. */
export interface ToolConfig<S extends SchemaInput | undefined = SchemaInput | undefined> {
  title?: string;
  description?: string;
  /** Arguments schema; default: the schema attached with {@link withInputSchema}, else no arguments. */
  inputSchema?: S;
  /** Schema of `structuredContent`; checked on every result that is not `isError`. */
  outputSchema?: SchemaInput;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
  /** Client capabilities the tool cannot work without (checked before the handler runs; modern: -32021). */
  requiredClientCapabilities?: ClientCapabilities;
  /**
   * Tasks extension: `optional` runs the call as a task when the client declared the extension,
   * `required` answers -32021 when it did not. Default `forbidden`. Legacy sessions always run it synchronously.
   */
  taskSupport?: TaskSupport;
  /** `auto` (default) creates the task before the handler runs; `manual` waits for `ctx.startTask()`. */
  taskMode?: "auto" | "manual";
}

/** A handler with its input schema attached (see {@link withInputSchema}). */
export type SchemaBoundHandler<S extends SchemaInput> = ToolHandler<ArgsOf<S>> & { readonly inputSchema: S };

/** What a resource handler may return: text, bytes (sent as base64 `blob`), or a full `ReadResourceResult`. */
export type ResourceReturn =
  | string
  | Uint8Array
  | ArrayBuffer
  | ReadResourceResult
  | { text: string; mimeType?: string }
  | { blob: string; mimeType?: string }
  | undefined
  | null;

/** Reads a static resource. */
export type ResourceHandler = (
  uri: string,
  context: HandlerContext,
) => ResourceReturn | Promise<ResourceReturn>;

/** Reads a templated resource; returning `undefined` or `null` means "not found". */
export type ResourceTemplateHandler = (
  uri: string,
  variables: Record<string, string>,
  context: HandlerContext,
) => ResourceReturn | Promise<ResourceReturn>;

/** Configuration of a static resource. */
export interface ResourceConfig {
  name: string;
  title?: string;
  description?: string;
  /** Default `text/plain`. */
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

/** Completes one argument or variable from what the user typed so far. */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | Promise<string[]>;

/** Configuration of a resource template. */
export interface ResourceTemplateConfig {
  name: string;
  title?: string;
  description?: string;
  /** Of every resource it matches; a read's contents default to `text/plain`, as a static resource's. */
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
  /** Completers of template variables, for `completion/complete` with `ref/resource`. */
  complete?: Record<string, Completer>;
  /** Resources to list in `resources/list` for this template. */
  list?: () => Array<{ uri: string; name: string; description?: string; mimeType?: string }>;
}

/** What a prompt handler may return: a string (one user text message), messages, or a `GetPromptResult`. */
export type PromptReturn = string | PromptMessage[] | GetPromptResult;

/** A prompt handler; arguments are strings (or the `argsSchema` output). */
export type PromptHandler<A = Record<string, string>> = (
  args: A,
  context: HandlerContext,
) => PromptReturn | Promise<PromptReturn>;

/** Configuration of a prompt. Give `arguments`, or an `argsSchema` whose properties become the arguments. */
export interface PromptConfig<S extends SchemaInput | undefined = SchemaInput | undefined> {
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  argsSchema?: S;
  icons?: Icon[];
  _meta?: Meta;
  /** Completers of arguments, for `completion/complete` with `ref/prompt`. */
  complete?: Record<string, Completer>;
}

/** A registered item; `remove()` takes it out and tells connected clients the list changed. */
export interface Registered {
  remove(): void;
}
