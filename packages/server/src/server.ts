import type { JsonRpcNotification, JsonRpcRequest, Transport } from "@mcpkit/jsonrpc";
import type { Implementation } from "@mcpkit/protocol";
import { connect, type ServerConnection } from "./connection.js";
import { type HandleContext, type HandleResult, handleModern } from "./handle.js";
import type { ListKind } from "./internal/registry.js";
import { endListeners } from "./listen.js";
import { notifyResourceUpdated } from "./resource-updates.js";
import { ServerCore } from "./server-core.js";
import type { ConnectOptions } from "./shared-session.js";
import type { SkillDefinition } from "./skills.js";
import type {
  ArgsOf,
  PromptConfig,
  PromptHandler,
  Registered,
  ResourceConfig,
  ResourceHandler,
  ResourceTemplateConfig,
  ResourceTemplateHandler,
  SchemaBoundHandler,
  SchemaInput,
  ServerOptions,
  ServerStores,
  ToolConfig,
  ToolHandler,
} from "./types.js";

/**
 * An MCP server: a registry of tools, resources, templates and prompts, built once and shared by every
 * connection, answering both protocol eras. Registration may happen before or after `connect`; clients of
 * either era are told when a list changes.
 */
export interface Server {
  readonly info: Implementation;
  /**
   * Registers a tool. The input schema (JSON Schema or Standard Schema) is converted and compiled now;
   * invalid arguments come back as an `isError` result, and a throw from the handler too.
   * @throws TypeError for a duplicate or malformed name, or a schema that cannot be compiled.
   */
  registerTool<S extends SchemaInput>(
    name: string,
    config: Omit<ToolConfig<undefined>, "inputSchema">,
    handler: SchemaBoundHandler<S>,
  ): Registered;
  registerTool<S extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<S>,
    handler: ToolHandler<ArgsOf<S>>,
  ): Registered;
  /** Registers a static resource (`mimeType` defaults to `text/plain`). */
  registerResource(uri: string, config: ResourceConfig, handler: ResourceHandler): Registered;
  /** Registers an RFC 6570 URI template such as `file://{path}`; its handler gets the variables. */
  registerResourceTemplate(
    uriTemplate: string,
    config: ResourceTemplateConfig,
    handler: ResourceTemplateHandler,
  ): Registered;
  /** Registers a prompt; its arguments come from `arguments` or from `argsSchema`. */
  registerPrompt<S extends SchemaInput | undefined = undefined>(
    name: string,
    config: PromptConfig<S>,
    handler: PromptHandler<S extends undefined ? Record<string, string> : ArgsOf<S>>,
  ): Registered;
  /**
   * Registers a skill (Skills extension, SEP-2640): its SKILL.md and supporting files, each served as a
   * resource under `skill://<prefix>/<name>/`, listed by `skills/list` and answered by `skills/get` with
   * their SHA-256 digests and sizes, computed now. Declares the extension (2026-07-28 clients; the
   * extension does not exist in the legacy era, where the files are plain resources).
   * @throws TypeError for a SKILL.md without frontmatter `name` and `description`, a name that breaks the
   *   Agent Skills naming rules, a bad prefix or file path, or a URI already served; RangeError over the
   *   extension's limits (512 files, 16 MiB).
   */
  registerSkill(skill: SkillDefinition): Registered;
  /**
   * Serves one transport: a stdio pipe, an in-memory pair, a legacy HTTP session (and any 2026-07-28
   * requests sent over such a connection). Cheap: it creates a JSON-RPC peer and a small state object;
   * nothing of the registry is rebuilt. A stateless 2026-07-28 request needs no connection: see
   * {@link Server.handle}. `options.sharedSession`: the state of a legacy session shared by several
   * instances (`@mcpkit/transport-http` gives it as `info.sharedSession`; with `listen({ server })` it is
   * passed on for you).
   * @throws Error after {@link Server.close}.
   */
  connect(transport: Transport, options?: ConnectOptions): Promise<ServerConnection>;
  /**
   * Answers one 2026-07-28 request (or notification) on its own, as a function call: no transport, peer
   * or connection is made for it, only a light context. Its `_meta` says who asks and at which version.
   * Resolves with the JSON-RPC response (a wire error is a response too: -32602 for a missing `_meta`
   * version or client capabilities, -32022 for a version that is not a 2026-07-28 one, -32601 for an
   * unknown method), or undefined for a notification and for a request cancelled through
   * `context.signal` before it settled. Notifications of the request (progress, log messages, the events
   * of `subscriptions/listen`) go to `context.notify`, before the response. Synchronous where the method
   * is (lists, discover): a promise only when something waits. Does NOT map errors to HTTP statuses
   * (the carrier does, by code) and does not apply `maxConcurrentRequestsPerConnection` (the carrier
   * bounds requests in flight); `close()` does not abort requests in flight (their carrier does), but
   * ends `subscriptions/listen` streams.
   * @throws Error (a rejection) after {@link Server.close}.
   */
  handle(
    message: JsonRpcRequest | JsonRpcNotification,
    context?: HandleContext,
  ): HandleResult | Promise<HandleResult>;
  /**
   * Tells subscribers of `uri` (legacy `resources/subscribe`, modern listen filters) that it changed:
   * this instance's at once, and with `ServerOptions.bus` those of the other instances too.
   */
  notifyResourceUpdated(uri: string): void;
  /**
   * Tells clients a list changed without a registration (e.g. a tool's description depends on state);
   * with `ServerOptions.bus`, the other instances' clients too.
   */
  notifyListChanged(kind: ListKind): void;
  /**
   * Hands the server shared stores for running as one of several instances behind a load balancer (the
   * `ServerOptions` counterparts, for a server that already exists: `serve(server, { store })` of the
   * `mcpkit` package calls it). `tasks` replaces `tasks.store`, `bus` replaces `bus` (the server
   * subscribes to it now and unsubscribes on `close()`; it never closes it), `requestStateKey` replaces
   * the key or key ring; an undefined entry keeps the server's own. Registration may come before or
   * after. Does NOT turn the tasks extension on: a tool's `taskSupport` (or `ServerOptions.tasks`) does.
   * @throws Error once the server made a connection (or was closed): a request already used the old
   *   stores; RangeError for an empty key ring.
   */
  useStores(stores: ServerStores): void;
  /** Connections currently open. */
  readonly connectionCount: number;
  /**
   * Stops receiving from `ServerOptions.bus` (it does not close the bus), ends every
   * `subscriptions/listen` stream with its graceful result, then closes every connection. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * The public face of a server: registration goes to the registry, `connect` to {@link connect}, the
 * notifications to their fan-outs. Everything it shares with the method handlers is in its
 * {@link ServerCore}.
 */
class ServerImpl implements Server {
  readonly info: Implementation;
  private readonly core: ServerCore;

  constructor(options: ServerOptions) {
    this.core = new ServerCore(options);
    this.info = this.core.info;
  }

  get connectionCount(): number {
    return this.core.connections.size;
  }

  registerTool(name: string, config: ToolConfig<any>, handler: ToolHandler<any>): Registered {
    return { remove: this.core.registry.addTool(name, config ?? {}, handler) };
  }

  registerResource(uri: string, config: ResourceConfig, handler: ResourceHandler): Registered {
    return { remove: this.core.registry.addResource(uri, config, handler) };
  }

  registerResourceTemplate(
    uriTemplate: string,
    config: ResourceTemplateConfig,
    handler: ResourceTemplateHandler,
  ): Registered {
    return { remove: this.core.registry.addTemplate(uriTemplate, config, handler) };
  }

  registerPrompt<S extends SchemaInput | undefined = undefined>(
    name: string,
    config: PromptConfig<S>,
    handler: PromptHandler<S extends undefined ? Record<string, string> : ArgsOf<S>>,
  ): Registered {
    return { remove: this.core.registry.addPrompt(name, config ?? {}, handler) };
  }

  registerSkill(skill: SkillDefinition): Registered {
    return { remove: this.core.skills.add(skill).remove };
  }

  notifyListChanged(kind: ListKind): void {
    this.core.changes.schedule(kind);
  }

  notifyResourceUpdated(uri: string): void {
    const core = this.core;
    notifyResourceUpdated(core.connections, core.listeners, uri);
    if (core.bus !== undefined) core.bus.resourceUpdated(uri);
  }

  useStores(stores: ServerStores): void {
    this.core.useStores(stores);
  }

  connect(transport: Transport, options?: ConnectOptions): Promise<ServerConnection> {
    const core = this.core;
    if (core.isClosed) return Promise.reject(new Error("Server.connect() was called after close()"));
    core.connectedOnce = true;
    return connect(core, transport, options);
  }

  handle(
    message: JsonRpcRequest | JsonRpcNotification,
    context: HandleContext = {},
  ): HandleResult | Promise<HandleResult> {
    return handleModern(this.core, message, context);
  }

  async close(): Promise<void> {
    const core = this.core;
    if (core.isClosed) return;
    core.isClosed = true;
    core.bus?.detach();
    endListeners(core.listeners);
    // Let the graceful listen results reach their transports before the connections go.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([...core.connections].map((conn) => conn.peer.close()));
  }
}

/**
 * Creates an MCP server. Nothing happens until {@link Server.connect}; register tools, resources,
 * templates and prompts before or after.
 * @throws TypeError when `name` or `version` is missing.
 */
export function createServer(options: ServerOptions): Server {
  return new ServerImpl(options);
}

/**
 * Attaches an input schema to a tool handler, so `registerTool(name, config, handler)` takes the schema
 * from the handler when `config.inputSchema` is absent, and the handler's `args` are typed by it.
 */
export function withInputSchema<S extends SchemaInput>(
  schema: S,
  handler: ToolHandler<ArgsOf<S>>,
): SchemaBoundHandler<S> {
  return Object.assign((args: ArgsOf<S>, context: Parameters<ToolHandler>[1]) => handler(args, context), {
    inputSchema: schema,
  });
}
