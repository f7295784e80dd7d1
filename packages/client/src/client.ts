import {
  type GetPromptResult,
  isLoggingLevel,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  ResultType,
  readResultType,
  type SubscriptionFilter,
  type Tool,
} from "@mcpkit/protocol";
import type { Client, Completion, TaskInfo } from "./client-api.js";
import { ClientLife } from "./client-life.js";
import { Connection } from "./connection.js";
import { InvalidResultError } from "./errors.js";
import type { InputHandlers } from "./input.js";
import { Lock } from "./internal/lock.js";
import { OutputValidators } from "./internal/output-validator.js";
import { isObject } from "./internal/util.js";
import { legacyReinitializer } from "./legacy-handshake.js";
import { Outbound, type RoundsPlan } from "./links/link.js";
import { ListCache, type ListKind } from "./list-cache.js";
import { Negotiator } from "./negotiation.js";
import { type CallOptions, type ClientOptions, type ListOptions, resolveSettings } from "./options.js";
import { RequestChain } from "./request-chain.js";
import { RequestEnvelope } from "./request-envelope.js";
import { cacheHints, ResponseCache } from "./response-cache.js";
import { declaredHandlers, type Session, type SessionHooks, startSession } from "./session.js";
import { createSkillsClient, type SkillsClient } from "./skills.js";
import { Subscriptions } from "./subscriptions.js";
import { TaskPoller } from "./tasks.js";
import { type OutputValidation, parseStructured, type ToolCallOptions } from "./tool-call.js";
import { fromWireToolResult, type ToolResult } from "./tool-result.js";

/**
 * Creates an MCP client. Nothing happens until {@link Client.connect}.
 *
 * One session API over both eras: the same calls, the same handlers, the same subscription stream,
 * whichever era the server speaks. Requests never hang: each one has a timeout (60 s unless told
 * otherwise), and a connection that ends fails every pending call at once.
 *
 * This function only assembles the parts, each made before the ones that use it: the options
 * (`options.ts`), the client's state (`client-life.ts`), the request chain and its links
 * (`request-chain.ts`, `links/`), the lists (`list-cache.ts`), the response cache (`response-cache.ts`),
 * the notification streams (`subscriptions.ts`), tasks (`tasks.ts`), the session and its handshake
 * (`session.ts`, `negotiation.ts`, `legacy-handshake.ts`) and the life of the connection
 * (`connection.ts`). The era is the session's (`Session.era`), and only its.
 * @throws RangeError on a timeout that is NaN, 0 or negative, or a `protocolVersion` mcpkit does not speak.
 * @see SPEC.md §3.4 (negotiation), §3.7 (MRTR), §4 (legacy era)
 */
export function createClient(options: ClientOptions): Client {
  const settings = resolveSettings(options);
  const { onError, handlers } = settings;
  const lifetime = new AbortController();
  const life = new ClientLife();
  const lock = options.serialize ? new Lock() : undefined;
  const validators = new OutputValidators(options.validator);
  const responses = new ResponseCache(options.cache);
  const envelope = new RequestEnvelope(settings.clientInfo);
  const tasks = new TaskPoller(handlers, lifetime.signal, onError);
  const chain = new RequestChain({
    requestConfig: settings.requestConfig,
    envelope,
    lock,
    links: options.links,
    retry: {
      isOpen: () => life.isOpen(),
      reinitialize: legacyReinitializer(settings, lifetime.signal, envelope),
    },
    rounds: {
      handlers,
      lifetime: lifetime.signal,
      maxInputRounds: settings.maxInputRounds,
      tasks: options.tasks === true,
      pollTask: (send, s, taskId, call, operation) => tasks.poll(send, s, taskId, call, operation),
    },
  });
  const lists = new ListCache(chain, validators, onError, responses);
  const subscriptions = new Subscriptions(chain, {
    options,
    onError,
    life,
    beforeRouting: (method, params) => {
      lists.onNotification(method);
      responses.onNotification(method, params)?.catch(onError);
    },
  });
  const sessionHooks: SessionHooks = {
    settings,
    closing: () => life.isClosing(),
    onNotification: (s, method, params) => subscriptions.handleNotification(s, method, params),
  };
  const negotiator = new Negotiator(settings, {
    lifetime: lifetime.signal,
    envelope,
    startSession: (inner) => startSession(inner, sessionHooks),
  });
  const conn = new Connection({
    negotiator,
    life,
    lifetime,
    lock,
    autoRespawn: options.autoRespawn === true,
    onSettled: () => {
      responses.newSession().catch(onError);
    },
    onClose: options.onClose,
  });

  /** A request of `method` on the live session (reconnected first when allowed). */
  function outbound(
    s: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions | undefined,
  ): Outbound {
    const op = new Outbound(s, method, params, call);
    if (method === "tools/call") {
      // The tool is looked up here, once, for the envelope's Mcp-Param-* headers (and again after a mismatch).
      const name = params?.name;
      if (typeof name === "string") {
        op.tool = lists.tool(name);
        op.refreshTool = () => lists.list("tools", { refresh: true }, conn).then(() => lists.tool(name));
      }
    }
    return op;
  }

  /** Sends a request down the chain; not async: on the live session it hands back the chain's promise. */
  function send(
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions | undefined,
    rounds?: RoundsPlan,
  ): Promise<unknown> {
    const s = conn.live();
    if (s !== undefined) return chain.send(withRounds(outbound(s, method, params, call), rounds));
    return conn.ensure().then((live) => chain.send(withRounds(outbound(live, method, params, call), rounds)));
  }

  /** A request that may take `input_required` rounds (MRTR), run to its final result. */
  function withInput(
    method: string,
    params: Record<string, unknown>,
    call: CallOptions | undefined,
    plan: RoundsPlan = {},
  ): Promise<Record<string, unknown>> {
    return send(method, params, call, plan) as Promise<Record<string, unknown>>;
  }

  const close = (): Promise<void> => conn.close();
  // Made on first use: the skills client holds no state but the host it reads through.
  let skills: SkillsClient | undefined;
  const skillsClient = (): SkillsClient => (skills ??= createSkillsClient(client, { onError }));
  const nameArgs = (name: string, args: Record<string, unknown> | undefined): Record<string, unknown> =>
    args === undefined ? { name } : { name, arguments: args };

  const client: Client = {
    connect: (source, connectOptions = {}) => {
      // Only a first connect names the server (a second one is refused by the connection).
      if (conn.state === "new") responses.setServer(connectOptions.serverKey);
      return conn.connect(source, connectOptions);
    },
    listTools: (call) => listAll("tools", call) as Promise<Tool[]>,
    listResources: (call) => listAll("resources", call) as Promise<Resource[]>,
    listResourceTemplates: (call) => listAll("resourceTemplates", call) as Promise<ResourceTemplate[]>,
    listPrompts: (call) => listAll("prompts", call) as Promise<Prompt[]>,
    async callTool<T>(name: string, args?: Record<string, unknown>, call?: ToolCallOptions<T>) {
      return checkResult(
        name,
        fromWireToolResult(await withInput("tools/call", nameArgs(name, args), call)),
        call,
      );
    },
    async startTool(name, args, call) {
      const s = await conn.ensure();
      const answer = await withInput("tools/call", nameArgs(name, args), call, { returnTask: true });
      const taskId = readResultType(answer) === ResultType.Task ? (answer.taskId as string) : undefined;
      if (taskId === undefined) {
        const done = checkResult(name, fromWireToolResult(answer), call);
        return { taskId, result: () => done, cancel: async () => {} };
      }
      return {
        taskId,
        result: async (wait) =>
          checkResult(name, fromWireToolResult(await tasks.poll(chain.send, s, taskId, wait ?? call)), call),
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
      const result = await withInput("resources/read", { uri }, call, {
        onDirect: (r) => {
          direct = r;
        },
      });
      if (direct !== undefined) {
        const hints = cacheHints(direct);
        await responses.put(key, ticket, direct, hints.ttlMs, hints.scope);
      }
      return result as unknown as ReadResourceResult;
    },
    async getPrompt(name, args, call) {
      return (await withInput("prompts/get", nameArgs(name, args), call)) as unknown as GetPromptResult;
    },
    async complete(ref, argument, context, call) {
      const params: Record<string, unknown> =
        context === undefined ? { ref, argument } : { ref, argument, context };
      const result = await send("completion/complete", params, call);
      if (!isObject(result) || !isObject(result.completion)) {
        throw new InvalidResultError("completion/complete", "completion/complete returned no completion");
      }
      return result.completion as unknown as Completion;
    },
    async ping(call) {
      const s = await conn.ensure();
      await send(s.era === "modern" ? "server/discover" : "ping", {}, call);
    },
    async setLogLevel(level, call) {
      if (!isLoggingLevel(level)) throw new RangeError(`Unknown log level ${JSON.stringify(level)}`);
      envelope.logLevel = level;
      const s = await conn.ensure();
      if (s.era === "legacy") await send("logging/setLevel", { level }, call);
    },
    subscribe: (filter: SubscriptionFilter) => subscriptions.subscribe(filter, conn),
    async getTask(taskId, call) {
      const task = await send("tasks/get", { taskId }, call);
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
      await send("tasks/update", { taskId, inputResponses }, call);
    },
    async cancelTask(taskId, call) {
      await send("tasks/cancel", { taskId }, call);
    },
    async awaitTask(taskId, call) {
      const s = await conn.ensure();
      if (s.era === "legacy") {
        // 2025-11-25 `tasks/result` blocks until the task ends and returns the underlying result.
        const blocking: CallOptions = { timeout: Number.POSITIVE_INFINITY, ...call };
        return fromWireToolResult(await send("tasks/result", { taskId }, blocking));
      }
      return fromWireToolResult(await tasks.poll(chain.send, s, taskId, call));
    },
    listSkills: (call) => skillsClient().list(call),
    getSkill: (uri, call) => skillsClient().get(uri, call),
    loadSkill: (skill, call) => skillsClient().load(skill, call),
    request: (method, params, call) => send(method, params, call),
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
      return lists.isStale("tools");
    },
    get promptsStale() {
      return lists.isStale("prompts");
    },
    get resourcesStale() {
      return lists.isStale("resources");
    },
    get resourceTemplatesStale() {
      return lists.isStale("resourceTemplates");
    },
    get discovery() {
      return conn.session?.discovery;
    },
    get tools() {
      return lists.last("tools") as readonly Tool[] | undefined;
    },
    get prompts() {
      return lists.last("prompts") as readonly Prompt[] | undefined;
    },
    get resources() {
      return lists.last("resources") as readonly Resource[] | undefined;
    },
    get resourceTemplates() {
      return lists.last("resourceTemplates") as readonly ResourceTemplate[] | undefined;
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
    return lists.list(kind, call, conn);
  }

  return client;
}

/** Marks `op` as a request that may take `input_required` rounds, when `rounds` says so. */
function withRounds(op: Outbound, rounds: RoundsPlan | undefined): Outbound {
  if (rounds !== undefined) op.rounds = rounds;
  return op;
}
