import type { Transport } from "@mcpkit/jsonrpc";
import type {
  CompleteResult,
  DetailedTask,
  DiscoverResult,
  GetPromptResult,
  Implementation,
  InputResponses,
  JsonValue,
  LegacyTask,
  LoggingLevel,
  Prompt,
  PromptReference,
  ProtocolEra,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ResourceTemplateReference,
  ServerCapabilities,
  Skill,
  SubscriptionFilter,
  Tool,
} from "@mcpkit/protocol";
import "./async-dispose.js";
import type { InputHandlers } from "./input.js";
import type { AwaitTaskOptions, CallOptions, ConnectOptions, ListOptions, ReadOptions } from "./options.js";
import type { LoadedSkill } from "./skills.js";
import type { Subscription } from "./subscription.js";
import type { ToolCallOptions, ToolTaskHandle } from "./tool-call.js";
import type { ToolResult } from "./tool-result.js";
import type { TransportSource } from "./transport-source.js";

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
  /**
   * Every tool, all pages; kept in the response cache for the result's `ttlMs` (legacy: until
   * `list_changed`, if the server sends it). `refresh` fetches again.
   */
  listTools(options?: ListOptions): Promise<Tool[]>;
  listResources(options?: ListOptions): Promise<Resource[]>;
  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]>;
  listPrompts(options?: ListOptions): Promise<Prompt[]>;
  /**
   * Calls a tool. A tool failure is data (`isError`); a JSON-RPC error throws `McpError`.
   * `input_required` rounds are answered by the handlers; a task is awaited (see {@link Client.startTool}
   * for the task handle at once). With `{ schema }` (any Standard Schema) `structured` is parsed and typed.
   * @throws OutputValidationError when `structuredContent` does not match the tool's `outputSchema`
   *   (unless `outputValidation` says `warn` or `off`) or the `schema` given.
   */
  callTool<T = JsonValue>(
    name: string,
    args?: Record<string, unknown>,
    options?: ToolCallOptions<T>,
  ): Promise<ToolResult<T>>;
  /**
   * Calls a tool as a task (tasks extension; the client must be created with `tasks: true`) and resolves
   * as soon as the server answered, with the task's handle: its `taskId`, `result()` to await it and
   * `cancel()`. A server that answers at once (no task) gives a handle without `taskId` whose `result()`
   * is that answer.
   */
  startTool(name: string, args?: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolTaskHandle>;
  /**
   * Reads a resource. A modern result the server answered at once (no input rounds) is kept in the
   * response cache for its `ttlMs`, until `notifications/resources/updated` for its URI; `refresh` reads
   * again.
   */
  readResource(uri: string, options?: ReadOptions): Promise<ReadResourceResult>;
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
  /**
   * Every skill the server lists (Skills extension, SEP-2640): `skills/list`, all pages, entries only (no
   * skill file is read). Unusable entries are left out and reported to `onError`. Shortcut for
   * `createSkillsClient(client).list()`.
   * @throws Error when the server did not declare `io.modelcontextprotocol/skills`.
   */
  listSkills(options?: CallOptions): Promise<Skill[]>;
  /**
   * The current entry of one skill by the URI of its SKILL.md (`skills/get`). Shortcut for
   * `createSkillsClient(client).get(uri)`.
   * @throws McpError -32602 when the server serves no such skill; SkillVerificationError `entry` for an
   *   unusable entry; Error when the server did not declare the extension.
   */
  getSkill(uri: string, options?: CallOptions): Promise<Skill>;
  /**
   * Loads a skill (an entry, or the URI of its SKILL.md, fetched with `skills/get` first): reads its
   * SKILL.md only and verifies size, SHA-256 digest and frontmatter against the entry; other files are
   * read, and verified, when asked through `readFile`. Shortcut for `createSkillsClient(client).load()`.
   * @throws SkillVerificationError when the content does not match the entry; nothing of it is returned.
   */
  loadSkill(skill: Skill | string, options?: CallOptions): Promise<LoadedSkill>;
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
  /** True after `notifications/resources/list_changed` until the next `listResourceTemplates()`. */
  readonly resourceTemplatesStale: boolean;
  /** The whole `server/discover` result of a modern session, as the server sent it (legacy: `undefined`). */
  readonly discovery: DiscoverResult | undefined;
  /**
   * The last tool list this client fetched (or took from its cache), read-only; `undefined` before the
   * first `listTools()`. `toolsStale` says whether the server announced a change since.
   */
  readonly tools: readonly Tool[] | undefined;
  /** The last prompt list, read-only (see {@link Client.tools}). */
  readonly prompts: readonly Prompt[] | undefined;
  /** The last resource list, read-only (see {@link Client.tools}). */
  readonly resources: readonly Resource[] | undefined;
  /** The last resource template list, read-only (see {@link Client.tools}). */
  readonly resourceTemplates: readonly ResourceTemplate[] | undefined;
  /**
   * Sets or replaces input handlers after creation, even while connected (a key with `undefined` removes
   * its handler). The declared capabilities stay what `createClient` declared: a handler can be set only
   * for a capability declared there, by a handler or in `capabilities`.
   * @throws TypeError naming a capability that was not declared.
   */
  setHandlers(handlers: InputHandlers): void;
}
