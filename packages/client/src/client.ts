import type { Transport } from "@mcpkit/jsonrpc";
import {
  type CompleteResult,
  type DetailedTask,
  type DiscoverResult,
  type GetPromptResult,
  type Implementation,
  type InputResponses,
  isLoggingLevel,
  type JsonValue,
  type LegacyTask,
  type LoggingLevel,
  type Prompt,
  type PromptReference,
  type ProtocolEra,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ResourceTemplateReference,
  ResultType,
  readResultType,
  type ServerCapabilities,
  type Skill,
  type SubscriptionFilter,
  type Tool,
} from "@mcpkit/protocol";
import { Connection } from "./connection.js";
import { InvalidResultError } from "./errors.js";
import { Exchange } from "./exchange.js";
import type { InputHandlers } from "./input.js";
import { InputRounds } from "./input-rounds.js";
import { Lock } from "./internal/lock.js";
import { OutputValidators } from "./internal/output-validator.js";
import { isObject } from "./internal/util.js";
import { ListCache, type ListKind } from "./list-cache.js";
import { Negotiator } from "./negotiation.js";
import {
  type AwaitTaskOptions,
  type CallOptions,
  type ClientOptions,
  type ConnectOptions,
  type ListOptions,
  type ReadOptions,
  resolveSettings,
} from "./options.js";
import { RequestEnvelope } from "./request-envelope.js";
import { cacheHints, ResponseCache } from "./response-cache.js";
import { declaredHandlers, type Session, type SessionHooks, startSession } from "./session.js";
import { createSkillsClient, type LoadedSkill, type SkillsClient } from "./skills.js";
import type { Subscription } from "./subscription.js";
import { Subscriptions } from "./subscriptions.js";
import { TaskPoller } from "./tasks.js";
import {
  type OutputValidation,
  parseStructured,
  type ToolCallOptions,
  type ToolTaskHandle,
} from "./tool-call.js";
import { fromWireToolResult, type ToolResult } from "./tool-result.js";
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

/**
 * Creates an MCP client. Nothing happens until {@link Client.connect}.
 *
 * One session API over both eras: the same calls, the same handlers, the same subscription stream,
 * whichever era the server speaks. Requests never hang: each one has a timeout (60 s unless told
 * otherwise), and a connection that ends fails every pending call at once.
 *
 * This function only assembles the parts, each in its own module: the options (`options.ts`), the
 * session and its handshake (`session.ts`, `negotiation.ts`), the life of the connection
 * (`connection.ts`), what each request carries (`request-envelope.ts`), the exchange and its retries
 * (`exchange.ts`), MRTR rounds (`input-rounds.ts`), tasks (`tasks.ts`), the lists (`list-cache.ts`),
 * the response cache (`response-cache.ts`) and the notification streams (`subscriptions.ts`).
 * @throws RangeError on a timeout that is NaN, 0 or negative, or a `protocolVersion` mcpkit does not speak.
 * @see SPEC.md §3.4 (negotiation), §3.7 (MRTR), §4 (legacy era)
 */
export function createClient(options: ClientOptions): Client {
  const settings = resolveSettings(options);
  const { onError, handlers } = settings;
  const lifetime = new AbortController();
  const lock = options.serialize ? new Lock() : undefined;
  const validators = new OutputValidators(options.validator);
  const responses = new ResponseCache(options.cache);

  // The parts refer to one another only through these few late-bound functions.
  let lists: ListCache | undefined;
  let subscriptions: Subscriptions | undefined;
  let connection: Connection | undefined;
  const ensure = (): Promise<Session> => connection!.ensure();
  const isOpen = (): boolean => connection!.state === "open";

  const envelope = new RequestEnvelope(settings.clientInfo, (name) => lists!.tool(name));
  const sessionHooks: SessionHooks = {
    settings,
    closing: () => connection!.isClosing(),
    onNotification: (s, method, params) => subscriptions!.handleNotification(s, method, params),
  };
  const negotiator = new Negotiator(settings, {
    lifetime: lifetime.signal,
    envelope,
    startSession: (inner: Transport) => startSession(inner, sessionHooks),
  });
  const exchange = new Exchange(settings.requestConfig, envelope, lock, {
    isOpen,
    reinitialize: (s, cause) => negotiator.reinitialize(s, cause),
    refreshTools: () => lists!.list("tools", { refresh: true }),
  });
  lists = new ListCache(exchange, ensure, validators, onError, responses);
  subscriptions = new Subscriptions(exchange, {
    options,
    onError,
    session: ensure,
    isOpen,
    beforeRouting: (method, params) => {
      lists!.onNotification(method);
      responses.onNotification(method, params)?.catch(onError);
    },
  });
  const tasks = new TaskPoller(exchange, handlers, lifetime.signal, onError);
  const inputs = new InputRounds(exchange, {
    handlers,
    lifetime: lifetime.signal,
    maxInputRounds: settings.maxInputRounds,
    tasks: options.tasks === true,
    pollTask: (s, taskId, call, operation) => tasks.poll(s, taskId, call, operation),
  });
  const conn = new Connection({
    negotiator,
    lifetime,
    lock,
    autoRespawn: options.autoRespawn === true,
    onSettled: () => {
      responses.newSession().catch(onError);
    },
    onClose: options.onClose,
  });
  connection = conn;
  const cache = lists;

  /**
   * A request that may take `input_required` rounds. Not async: on the live session (the common case)
   * it hands back the rounds' own promise.
   */
  function withInput(
    method: string,
    base: Record<string, unknown>,
    call: CallOptions | undefined,
    onDirect?: (result: Record<string, unknown>) => void,
  ): Promise<Record<string, unknown>> {
    const s = conn.live();
    if (s !== undefined) return inputs.run(s, method, base, call, onDirect);
    return conn.ensure().then((live) => inputs.run(live, method, base, call, onDirect));
  }

  const close = (): Promise<void> => conn.close();
  // Made on first use: the skills client holds no state but the host it reads through.
  let skills: SkillsClient | undefined;
  const skillsClient = (): SkillsClient => (skills ??= createSkillsClient(client, { onError }));

  const client: Client = {
    connect: (source: TransportSource, connectOptions: ConnectOptions = {}) => {
      // Only a first connect names the server (a second one is refused by the connection).
      if (conn.state === "new") responses.setServer(connectOptions.serverKey);
      return conn.connect(source, connectOptions);
    },
    listTools: (call) => listAll("tools", call) as Promise<Tool[]>,
    listResources: (call) => listAll("resources", call) as Promise<Resource[]>,
    listResourceTemplates: (call) => listAll("resourceTemplates", call) as Promise<ResourceTemplate[]>,
    listPrompts: (call) => listAll("prompts", call) as Promise<Prompt[]>,
    async callTool<T>(name: string, args?: Record<string, unknown>, call?: ToolCallOptions<T>) {
      const base: Record<string, unknown> = args === undefined ? { name } : { name, arguments: args };
      return checkResult(name, fromWireToolResult(await withInput("tools/call", base, call)), call);
    },
    async startTool(name, args, call) {
      const base: Record<string, unknown> = args === undefined ? { name } : { name, arguments: args };
      const s = await conn.ensure();
      const answer = await inputs.run(s, "tools/call", base, call, undefined, true);
      const taskId = readResultType(answer) === ResultType.Task ? (answer.taskId as string) : undefined;
      if (taskId === undefined) {
        const done = checkResult(name, fromWireToolResult(answer), call);
        return { taskId, result: () => done, cancel: async () => {} };
      }
      return {
        taskId,
        result: async (wait) =>
          checkResult(name, fromWireToolResult(await tasks.poll(s, taskId, wait ?? call)), call),
        cancel: (cancelCall) => client.cancelTask(taskId, cancelCall),
      };
    },
    async readResource(uri, call) {
      const key = responses.key("resources/read", JSON.stringify(uri));
      if (responses.enabled && !call?.refresh) {
        const hit = await responses.get(key);
        if (hit !== undefined) return hit as ReadResourceResult;
      }
      const ticket = responses.ticket();
      let direct: Record<string, unknown> | undefined;
      const result = await withInput("resources/read", { uri }, call, (r) => {
        direct = r;
      });
      if (direct !== undefined) {
        const hints = cacheHints(direct);
        await responses.put(key, ticket, direct, hints.ttlMs, hints.scope);
      }
      return result as unknown as ReadResourceResult;
    },
    async getPrompt(name, args, call) {
      const base: Record<string, unknown> = args === undefined ? { name } : { name, arguments: args };
      return (await withInput("prompts/get", base, call)) as unknown as GetPromptResult;
    },
    async complete(ref, argument, context, call) {
      const s = await conn.ensure();
      const params: Record<string, unknown> =
        context === undefined ? { ref, argument } : { ref, argument, context };
      const result = await exchange.request(s, "completion/complete", params, call);
      if (!isObject(result) || !isObject(result.completion)) {
        throw new InvalidResultError("completion/complete", "completion/complete returned no completion");
      }
      return result.completion as unknown as Completion;
    },
    async ping(call) {
      const s = await conn.ensure();
      await exchange.request(s, s.era === "modern" ? "server/discover" : "ping", {}, call);
    },
    async setLogLevel(level, call) {
      if (!isLoggingLevel(level)) throw new RangeError(`Unknown log level ${JSON.stringify(level)}`);
      envelope.logLevel = level;
      const s = await conn.ensure();
      if (s.era === "legacy") await exchange.request(s, "logging/setLevel", { level }, call);
    },
    subscribe: (filter: SubscriptionFilter): Subscription => subscriptions!.subscribe(filter),
    async getTask(taskId, call) {
      const s = await conn.ensure();
      const task = await exchange.request(s, "tasks/get", { taskId }, call);
      if (!isObject(task) || typeof task.status !== "string") {
        throw new InvalidResultError("tasks/get", "tasks/get returned no task");
      }
      return task as unknown as TaskInfo;
    },
    async updateTask(taskId, inputResponses, call) {
      const s = await conn.ensure();
      if (s.era !== "modern") {
        throw new Error(
          "tasks/update belongs to the tasks extension (2026-07-28); legacy tasks take input as requests",
        );
      }
      await exchange.request(s, "tasks/update", { taskId, inputResponses }, call);
    },
    async cancelTask(taskId, call) {
      const s = await conn.ensure();
      await exchange.request(s, "tasks/cancel", { taskId }, call);
    },
    async awaitTask(taskId, call) {
      const s = await conn.ensure();
      if (s.era === "legacy") {
        // 2025-11-25 `tasks/result` blocks until the task ends and returns the underlying result.
        const blocking: CallOptions = { timeout: Number.POSITIVE_INFINITY, ...call };
        return fromWireToolResult(await exchange.request(s, "tasks/result", { taskId }, blocking));
      }
      return fromWireToolResult(await tasks.poll(s, taskId, call));
    },
    listSkills: (call) => skillsClient().list(call),
    getSkill: (uri, call) => skillsClient().get(uri, call),
    loadSkill: (skill, call) => skillsClient().load(skill, call),
    async request(method, params, call) {
      const s = await conn.ensure();
      return exchange.request(s, method, params, call);
    },
    close,
    [Symbol.asyncDispose]: close,
    get serverInfo() {
      return conn.session?.serverInfo;
    },
    get capabilities() {
      return conn.session?.serverCapabilities;
    },
    get instructions() {
      return conn.session?.instructions;
    },
    get protocolVersion() {
      return conn.session?.version;
    },
    get era() {
      return conn.session?.era;
    },
    get toolsStale() {
      return cache.isStale("tools");
    },
    get promptsStale() {
      return cache.isStale("prompts");
    },
    get resourcesStale() {
      return cache.isStale("resources");
    },
    get resourceTemplatesStale() {
      return cache.isStale("resourceTemplates");
    },
    get discovery() {
      return conn.session?.discovery;
    },
    get tools() {
      return cache.last("tools") as readonly Tool[] | undefined;
    },
    get prompts() {
      return cache.last("prompts") as readonly Prompt[] | undefined;
    },
    get resources() {
      return cache.last("resources") as readonly Resource[] | undefined;
    },
    get resourceTemplates() {
      return cache.last("resourceTemplates") as readonly ResourceTemplate[] | undefined;
    },
    setHandlers(given: InputHandlers) {
      const declared = declaredHandlers(settings);
      for (const kind of Object.keys(given) as Array<keyof InputHandlers>) {
        if (!(kind in declared)) throw new TypeError(`setHandlers: unknown handler ${JSON.stringify(kind)}`);
        if (given[kind] !== undefined && !declared[kind]) {
          throw new TypeError(
            `setHandlers: ${kind} was not declared at createClient(), so no server will ask for it; pass handlers.${kind} or capabilities.${kind} to createClient()`,
          );
        }
      }
      // The parts that answer input (session, rounds, tasks) share this one object: changed in place.
      for (const kind of Object.keys(given) as Array<keyof InputHandlers>) {
        if (given[kind] === undefined) delete handlers[kind];
        else (handlers as Record<string, unknown>)[kind] = given[kind];
      }
    },
    get transport() {
      return conn.session?.inner;
    },
  };

  /** The tool's output check as `outputValidation` says, then the caller's `schema`, if any. */
  async function checkResult<T>(
    name: string,
    result: ToolResult,
    call: ToolCallOptions<T> | undefined,
  ): Promise<ToolResult<T>> {
    const mode: OutputValidation = call?.outputValidation ?? options.outputValidation ?? "error";
    if (mode !== "off" && !result.isError && validators.has(name)) {
      try {
        await validators.check(name, result.structured);
      } catch (error) {
        if (mode === "error") throw error;
        onError(error);
      }
    }
    return call?.schema === undefined
      ? (result as ToolResult<T>)
      : parseStructured(name, result, call.schema);
  }

  function listAll(kind: ListKind, call: ListOptions | undefined): Promise<unknown[]> {
    return cache.list(kind, call);
  }

  return client;
}
