import { AsyncLocalStorage } from "node:async_hooks";
import {
  type CallOptions,
  type Client,
  createClient,
  type InputContext,
  type Subscription,
  type TransportSource,
} from "@mcpkit/client";
import type {
  CallToolResult,
  Prompt,
  Resource,
  ResourceTemplate,
  TelemetryOption,
  Tool,
} from "@mcpkit/protocol";
import { createSseClientTransport, createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { createNodeFetch, nodeBodyReader } from "@mcpkit/transport-http/node";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import type { HeldCall } from "./held-call.js";
import { Mutex } from "./internal/mutex.js";
import type { UpstreamConfig, UpstreamSettings } from "./types.js";

/** What an upstream offers, as listed at start (and again after it says a list changed). */
export interface UpstreamCatalog {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  templates: ResourceTemplate[];
}

/** A notification from an upstream that the gateway fans out. */
export type UpstreamChange =
  | { kind: "list"; list: "tools" | "prompts" | "resources" }
  | { kind: "updated"; uri: string };

/** Options of {@link Upstream}. */
export interface UpstreamOptions {
  config: UpstreamConfig;
  settings: UpstreamSettings;
  /** The gateway's name and version, sent upstream as `clientInfo`. */
  clientInfo: { name: string; version: string };
  onChange(change: UpstreamChange): void;
  /** Problems nobody awaits (a dropped notification, a late answer), naming the upstream. */
  onError(error: Error): void;
  /** Each stderr line of a stdio upstream (its last lines are kept for crash messages anyway). */
  onStderr?: ((line: string) => void) | undefined;
  telemetry?: TelemetryOption | undefined;
}

const LISTS = ["tools", "prompts", "resources"] as const;
/** Idle extra sessions kept per legacy HTTP upstream. */
const MAX_SPARE_SESSIONS = 8;

function changeOf(method: string, params: Record<string, unknown>): UpstreamChange | undefined {
  if (method === "notifications/tools/list_changed") return { kind: "list", list: "tools" };
  if (method === "notifications/prompts/list_changed") return { kind: "list", list: "prompts" };
  if (method === "notifications/resources/list_changed") return { kind: "list", list: "resources" };
  if (method === "notifications/resources/updated" && typeof params.uri === "string") {
    return { kind: "updated", uri: params.uri };
  }
  return undefined;
}

// The held call a forwarded request runs for: a 2026-07-28 upstream's input_required rounds run inside
// the client's callTool, so the store finds the call they belong to.
const currentCall = new AsyncLocalStorage<HeldCall>();

/**
 * One upstream server behind the gateway: one `@mcpkit/client`, its transport (spawned stdio with
 * respawn after a crash, Streamable HTTP of either era, or HTTP+SSE), and the routing of what the
 * upstream asks the client (elicitation, sampling, roots) to the downstream call it belongs to.
 */
export class Upstream {
  readonly name: string;
  readonly settings: UpstreamSettings;
  /** The upstream's first session: lists, subscriptions, and every call unless a spare session takes it. */
  readonly client: Client;
  private readonly inFlight = new Map<Client, Set<HeldCall>>();
  /** Idle extra sessions of a legacy HTTP upstream (see {@link session}). */
  private readonly spares: Client[] = [];
  private readonly all = new Set<Client>();
  private readonly turn = new Mutex();
  private readonly config: UpstreamConfig;
  private readonly destroyFetch: (() => void) | undefined;
  private readonly source: TransportSource;
  private readonly onChange: (change: UpstreamChange) => void;
  private readonly makeClient: () => Client;
  private subscription: Subscription | undefined;

  constructor(options: UpstreamOptions) {
    const { config, settings } = options;
    this.name = config.name;
    this.settings = settings;
    this.config = config;
    const fetch = config.kind === "stdio" ? undefined : createNodeFetch();
    this.destroyFetch = fetch ? () => fetch.destroy() : undefined;
    this.makeClient = () => {
      const calls = new Set<HeldCall>();
      const client: Client = createClient({
        name: options.clientInfo.name,
        version: options.clientInfo.version,
        versionNegotiation: settings.era,
        requestTimeout: settings.timeoutMs,
        autoRespawn: config.kind === "stdio",
        // Every list goes to the upstream: the gateway re-lists only when told a list changed.
        cache: false,
        outputValidation: "off",
        ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
        handlers: {
          elicitation: (params, context) =>
            this.route(calls, "elicitation", params as never, context) as never,
          sampling: (params, context) => this.route(calls, "sampling", params as never, context) as never,
          roots: (context) => this.route(calls, "roots", {}, context) as never,
        },
        onLog: (params) => this.findCall(calls, client.era)?.onLog?.(params),
        onError: (error) =>
          options.onError(new Error(`upstream "${this.name}": ${error.message}`, { cause: error })),
      });
      this.inFlight.set(client, calls);
      this.all.add(client);
      return client;
    };
    this.client = this.makeClient();
    this.source = transportSource(config, fetch, options.onStderr);
    this.onChange = options.onChange;
  }

  /**
   * Follows the upstream's list changes and the updates of `uris` (one `subscribe()` stream: a listen
   * stream of a 2026-07-28 upstream, the session's notifications of a legacy one), until `stopped()`.
   * A stream that ends (the upstream crashed) is opened again after a pause — which respawns a stdio
   * upstream — and the lists are re-read, since a restarted server may offer other things.
   */
  follow(uris: readonly string[], stopped: () => boolean): void {
    const filter = {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      ...(uris.length > 0 && this.client.capabilities?.resources?.subscribe
        ? { resourceSubscriptions: [...uris] }
        : {}),
    };
    const run = async (pause: number) => {
      if (stopped()) return;
      let healthy = false;
      try {
        const subscription = this.client.subscribe(filter);
        this.subscription = subscription;
        await subscription.acknowledged;
        if (pause > 0) for (const list of LISTS) this.onChange({ kind: "list", list });
        healthy = true;
        for await (const n of subscription) {
          const change = changeOf(n.method, n.params);
          if (change) this.onChange(change);
        }
      } catch {
        // Ended by a crash or a closed connection: tried again below unless the gateway is closing.
      }
      if (stopped()) return;
      const next = healthy ? 250 : Math.min(30_000, Math.max(250, pause * 2));
      const timer = setTimeout(() => void run(next), next);
      timer.unref?.();
    };
    void run(0);
  }

  /** Connects (the handshake of the era `settings.era` picks). @throws naming the upstream when it fails. */
  async connect(signal?: AbortSignal): Promise<void> {
    try {
      await this.connectClient(this.client, signal);
    } catch (error) {
      throw new Error(`upstream "${this.name}" could not be reached: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  private async connectClient(client: Client, signal?: AbortSignal): Promise<void> {
    const key = this.config.url ?? [this.config.command, ...(this.config.args ?? [])].join(" ");
    await client.connect(this.source, signal ? { signal, serverKey: key } : { serverKey: key });
    // Every log line of the upstream comes to the gateway; each caller's own level filters it downstream.
    if (client.capabilities?.logging) await client.setLogLevel("debug").catch(() => {});
  }

  /**
   * The session a call runs on. A legacy (2025-11-25) server's request to the client names no call,
   * so over HTTP each call in flight gets a session of its own (idle ones are kept for the next calls):
   * then every such request belongs to the one call of its session. A stdio upstream has one session
   * (one process), and a 2026-07-28 one needs no more (its rounds run inside the call).
   */
  private async session(signal: AbortSignal): Promise<Client> {
    const primary = this.client;
    const poolable = this.config.kind !== "stdio" && primary.era === "legacy";
    if (!poolable || (this.inFlight.get(primary)?.size ?? 0) === 0) return primary;
    const spare = this.spares.pop();
    if (spare) return spare;
    const client = this.makeClient();
    try {
      await this.connectClient(client, signal);
    } catch (error) {
      this.forget(client);
      await client.close().catch(() => {});
      throw error;
    }
    return client;
  }

  private forget(client: Client): void {
    this.inFlight.delete(client);
    this.all.delete(client);
  }

  /** Lists what the upstream offers (only the kinds its capabilities declare). */
  async catalog(): Promise<UpstreamCatalog> {
    const caps = this.client.capabilities ?? {};
    const [tools, prompts, resources, templates] = await Promise.all([
      caps.tools ? this.client.listTools({ refresh: true }) : [],
      caps.prompts ? this.client.listPrompts({ refresh: true }) : [],
      caps.resources ? this.client.listResources({ refresh: true }) : [],
      caps.resources ? this.client.listResourceTemplates({ refresh: true }).catch(() => []) : [],
    ]);
    return { tools, prompts, resources, templates };
  }

  /** Calls a tool for a held call (see {@link run}); the result in its wire form. */
  async callTool(held: HeldCall, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = await this.run(held, (client, options) => client.callTool(name, args, options));
    const wire: CallToolResult = { content: result.parts };
    if (result.structured !== undefined) wire.structuredContent = result.structured as never;
    if (result.isError) wire.isError = true;
    return wire;
  }

  /**
   * Runs one request for a held call: on a session of its own when the upstream needs it, with the held
   * call's signal, the upstream's timeout and progress, so that input requests of the upstream during
   * it reach the held call; with `exclusive` it waits for the calls before it.
   */
  async run<T>(held: HeldCall, request: (client: Client, options: CallOptions) => Promise<T>): Promise<T> {
    const release = this.settings.exclusive ? await this.turn.acquire(held.controller.signal) : undefined;
    let client: Client | undefined;
    let calls: Set<HeldCall> | undefined;
    try {
      client = await this.session(held.controller.signal);
      const session = client;
      calls = this.inFlight.get(session) as Set<HeldCall>;
      calls.add(held);
      const options: CallOptions = {
        signal: held.controller.signal,
        timeout: this.settings.timeoutMs,
        maxTotalTimeout: this.settings.timeoutMs,
        onProgress: (p) => held.onProgress?.(p.progress, p.total, p.message),
      };
      return await currentCall.run(held, () => request(session, options));
    } finally {
      calls?.delete(held);
      if (client && client !== this.client) {
        if (this.spares.length < MAX_SPARE_SESSIONS && client.era !== undefined) this.spares.push(client);
        else {
          this.forget(client);
          void client.close().catch(() => {});
        }
      }
      release?.();
    }
  }

  /** Closes the client (a stdio upstream's child is ended) and its HTTP sockets. */
  async close(): Promise<void> {
    try {
      await this.subscription?.close().catch(() => {});
      await Promise.allSettled([...this.all].filter((c) => c !== this.client).map((c) => c.close()));
      await this.client.close();
    } finally {
      this.destroyFetch?.();
    }
  }

  /**
   * The call in flight on a session that a request or log line of the upstream belongs to: the one whose
   * async context it arrives in (a 2026-07-28 upstream answers inside the call), else the session's only
   * call; undefined when that cannot be told.
   */
  private findCall(inFlight: ReadonlySet<HeldCall>, era: string | undefined): HeldCall | undefined {
    const scoped = currentCall.getStore();
    if (era !== "legacy" && scoped && inFlight.has(scoped)) return scoped;
    if (inFlight.size === 1) return [...inFlight][0];
    return undefined;
  }

  /**
   * Finds the downstream call an upstream input request belongs to. A 2026-07-28 upstream asks inside
   * the client's call (the async context names it); a legacy one sends a request that names no call, so
   * it goes to the only call in flight, and with several it is refused rather than guessed.
   */
  private route(
    inFlight: ReadonlySet<HeldCall>,
    kind: "elicitation" | "sampling" | "roots",
    params: Record<string, unknown>,
    context: InputContext,
  ) {
    const found = this.findCall(inFlight, context.era);
    if (found) return found.ask(kind, params, context);
    // A legacy server asks for roots after the handshake, outside any call: it has none from the gateway.
    if (kind === "roots" && inFlight.size === 0) return Promise.resolve({ roots: [] });
    return Promise.reject(
      new Error(
        inFlight.size === 0
          ? `the gateway has no call in flight to upstream "${this.name}" that this ${kind} request could belong to`
          : `upstream "${this.name}" asked for ${kind} with ${inFlight.size} calls in flight; a 2025-11-25 request names no call, so the gateway refuses to guess (set gateway.upstreams.${this.name}.exclusive)`,
      ),
    );
  }
}

function transportSource(
  config: UpstreamConfig,
  fetch: ReturnType<typeof createNodeFetch> | undefined,
  onStderr: ((line: string) => void) | undefined,
): TransportSource {
  if (config.kind === "stdio") {
    const options = {
      command: config.command as string,
      args: config.args ?? [],
      stderr: onStderr ?? ((_line: string) => {}),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      ...(config.env === undefined ? {} : { env: config.env }),
    };
    return () => spawnStdioTransport(options);
  }
  const base = {
    url: new URL(config.url as string),
    headers: { ...config.headers },
    fetch: fetch as NonNullable<typeof fetch>,
    bodyReader: nodeBodyReader,
  };
  if (config.kind === "sse") return () => createSseClientTransport(base);
  return {
    modern: () => createStreamableHttpClientTransport({ ...base, era: "modern" }),
    legacy: () => createStreamableHttpClientTransport({ ...base, era: "legacy" }),
    sse: () => createSseClientTransport(base),
  };
}
