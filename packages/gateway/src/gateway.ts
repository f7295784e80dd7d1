import { randomBytes } from "node:crypto";
import type { Transport } from "@mcpkit/jsonrpc";
import type { TelemetryOption } from "@mcpkit/protocol";
import type { ServerOptions, ServerStores } from "@mcpkit/server";
import { listen } from "@mcpkit/transport-http/node";
import { type AuditSink, createAuditSink } from "./audit.js";
import { DEFAULT_PROFILE, identifyCaller, type TokenVerifier } from "./caller.js";
import { type CatalogSource, type MergedCatalog, mergeCatalogs } from "./catalog.js";
import { HeldCalls } from "./forward-tool.js";
import { IdentityLimits } from "./limits.js";
import { createFilePinStore, type HeldTool, Pinning, type PinStore } from "./pinning.js";
import { createProfileRouter } from "./profile-router.js";
import { ProfileServer } from "./profile-server.js";
import type { GatewayConfig } from "./types.js";
import { Upstream, type UpstreamCatalog, type UpstreamChange } from "./upstream.js";

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** The checked config (`loadGatewayConfig(file)`). */
  config: GatewayConfig;
  /** Verifies OAuth bearer tokens (`createProtectedResource(…)` of `@mcpkit/auth`); API keys need none. */
  tokenVerifier?: TokenVerifier;
  /** Where approved tool definitions live; default: the file of `gateway.pinning.file` (pinning is off without either). */
  pinStore?: PinStore;
  /** Where audit lines go; default: `gateway.audit.target`. */
  audit?: AuditSink;
  /** OpenTelemetry for the downstream servers and the upstream clients alike (their spans link through `_meta`). */
  telemetry?: TelemetryOption;
  /** The `requestState` HMAC key (ring); give the same to every instance. Default: random per process. */
  requestStateKey?: ServerOptions["requestStateKey"];
  /** Shared stores for several instances (`redisStore()` of `@mcpkit/redis` fits): tasks, the notification bus, the key ring. */
  stores?: ServerStores;
  /** What nobody awaits: an upstream's dropped notification, a catalog refresh that failed, a held tool. */
  onError?: (error: Error) => void;
  /** Sent upstream as `clientInfo` and downstream as `serverInfo`. Default `mcpkit-gateway`. */
  name?: string;
  version?: string;
}

/** Where {@link Gateway.listen} serves. */
export interface GatewayListenOptions {
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /** Hosts allowed besides loopback names (needed when bound to a public address behind a proxy). */
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

/** A listening gateway endpoint. */
export interface GatewayEndpoint {
  /** `http://host:port/path`. */
  readonly url: string;
  /** Stops listening and ends its sessions (the gateway and its upstreams stay). */
  close(): Promise<void>;
}

/** Many MCP servers behind one endpoint (see {@link createGateway}). */
export interface Gateway {
  /**
   * Connects every upstream, lists what each offers and registers it for each profile.
   * @throws naming the upstream that cannot be reached, or a `NameCollisionError` naming both sides.
   */
  start(): Promise<void>;
  /** Serves both protocol eras on one Streamable HTTP endpoint, each caller seeing its profile. */
  listen(options?: GatewayListenOptions): Promise<GatewayEndpoint>;
  /** Serves one connection (stdio for a desktop host, or in-memory) as the anonymous (else the first) profile. */
  connect(transport: Transport): Promise<void>;
  /** The tools held back by pinning (their definition changed since approval). */
  heldTools(): HeldTool[];
  /** Approves a held tool's current definition and offers it. @throws when no such tool is held. */
  approveTool(name: string): Promise<void>;
  /** The upstreams' names, in config order. */
  readonly upstreams: readonly string[];
  /** Closes every endpoint, the profile servers and the upstreams (stdio children are ended). */
  close(): Promise<void>;
}

type Kind = "tools" | "prompts" | "resources";
const ALL: readonly Kind[] = ["tools", "prompts", "resources"];

/**
 * Creates a gateway: one `@mcpkit/client` per upstream, one `@mcpkit/server` per profile whose tools,
 * prompts and resources forward to the upstreams. Any era in front of any era: a 2026-07-28 client of a
 * 2025-11-25 upstream answers its elicitation/sampling/roots requests as `input_required` rounds, and a
 * 2025-11-25 client of a 2026-07-28 upstream gets real server-to-client requests. No I/O until `start()`.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { config } = options;
  const settings = config.settings;
  const onError =
    options.onError ?? ((error: Error) => process.stderr.write(`mcpkit gateway: ${error.message}\n`));
  const clientInfo = { name: options.name ?? "mcpkit-gateway", version: options.version ?? "0.1.0" };
  const catalogs = new Map<string, UpstreamCatalog>();
  const upstreams = new Map<string, Upstream>();
  const endpoints = new Set<GatewayEndpoint>();
  const pinStore =
    options.pinStore ?? (settings.pinningFile ? createFilePinStore(settings.pinningFile) : undefined);
  const pinning = pinStore ? new Pinning(pinStore) : undefined;
  const held = new HeldCalls(settings.inputTimeoutMs);
  let merged: MergedCatalog = { tools: [], prompts: [], resources: [], templates: [] };
  let closing = false;
  const serverOptions: ServerOptions = {
    name: clientInfo.name,
    version: clientInfo.version,
    requestStateKey: options.requestStateKey ?? randomBytes(32),
    logger: {
      error: (message, error) =>
        onError(new Error(error ? `${message}: ${(error as Error).message}` : message)),
    },
  };
  if (options.telemetry !== undefined) serverOptions.telemetry = options.telemetry;
  const deps = {
    upstreams,
    held,
    limits: new IdentityLimits(),
    audit: options.audit ?? createAuditSink(settings.audit.target),
    settings,
    serverOptions,
    onError,
  };
  const profiles = new Map<string, ProfileServer>();
  const profileList = settings.profiles.length
    ? settings.profiles
    : [{ name: DEFAULT_PROFILE, rules: allowAll(), callsPerMinute: undefined, concurrency: undefined }];
  for (const p of profileList) {
    const limits = {
      callsPerMinute: p.callsPerMinute ?? settings.limits.callsPerMinute,
      concurrency: p.concurrency ?? settings.limits.concurrency,
    };
    const profile = new ProfileServer(p.name, p.rules, limits, deps);
    if (options.stores) profile.server.useStores(options.stores);
    profiles.set(p.name, profile);
  }
  const fallback = settings.anonymousProfile ?? (profileList[0] as { name: string }).name;

  const sources = (): CatalogSource[] =>
    config.upstreams
      .filter((u) => catalogs.has(u.name))
      .map((u) => ({
        upstream: u.name,
        settings: settings.upstreams[u.name]!,
        catalog: catalogs.get(u.name)!,
      }));

  /** Re-merges the catalogs and re-registers `kinds` on every profile. */
  const publish = async (kinds: readonly Kind[]) => {
    merged = mergeCatalogs(sources(), settings.separator);
    const offered = pinning ? await pinning.check(merged.tools) : merged.tools;
    if (pinning && kinds.includes("tools")) {
      for (const h of pinning.held()) {
        onError(
          new Error(
            `tool "${h.name}" of upstream "${h.upstream}" changed since it was approved: held back until approved`,
          ),
        );
      }
    }
    for (const profile of profiles.values()) profile.sync(merged, offered, kinds);
  };

  // One refresh at a time: a burst of list_changed re-lists once per kind in order.
  let refreshing = Promise.resolve();
  const queued = new Set<string>();
  const onChange = (upstream: Upstream, change: UpstreamChange) => {
    if (closing) return;
    if (change.kind === "updated") {
      for (const profile of profiles.values()) profile.server.notifyResourceUpdated(change.uri);
      return;
    }
    // A flood of list_changed costs one re-list: a refresh already queued covers the ones after it.
    const key = `${upstream.name}\u0000${change.list}`;
    if (queued.has(key)) return;
    queued.add(key);
    refreshing = refreshing.then(async () => {
      queued.delete(key);
      const before = catalogs.get(upstream.name);
      try {
        catalogs.set(upstream.name, await upstream.catalog());
        await publish([change.list]);
      } catch (error) {
        // A refresh that would collide (or failed) keeps the upstream's previous listing.
        if (before) catalogs.set(upstream.name, before);
        onError(
          new Error(`upstream "${upstream.name}": ${change.list} not refreshed: ${(error as Error).message}`),
        );
      }
    });
  };

  for (const u of config.upstreams) {
    const upstream: Upstream = new Upstream({
      config: u,
      settings: settings.upstreams[u.name]!,
      clientInfo,
      telemetry: options.telemetry,
      onChange: (change) => onChange(upstream, change),
      onError,
    });
    upstreams.set(u.name, upstream);
  }

  return {
    upstreams: config.upstreams.map((u) => u.name),
    async start() {
      await pinning?.load();
      await Promise.all([...upstreams.values()].map((u) => u.connect()));
      for (const u of upstreams.values()) catalogs.set(u.name, await u.catalog());
      await publish(ALL);
      for (const u of upstreams.values()) {
        const uris = (catalogs.get(u.name)?.resources ?? []).map((r) => r.uri);
        u.follow(uris.slice(0, settings.maxResourceSubscriptions), () => closing);
      }
    },
    async listen(listenOptions = {}) {
      const verifier = options.tokenVerifier;
      const handle = await listen({
        server: createProfileRouter(profiles, fallback),
        host: listenOptions.host ?? "127.0.0.1",
        port: listenOptions.port ?? 0,
        path: listenOptions.path ?? "/mcp",
        ...(listenOptions.allowedHosts ? { allowedHosts: listenOptions.allowedHosts } : {}),
        ...(listenOptions.allowedOrigins ? { allowedOrigins: listenOptions.allowedOrigins } : {}),
        authenticate: (request) => identifyCaller(request, settings, verifier),
        ...(verifier?.serveMetadata ? { otherRoutes: (r: Request) => verifier.serveMetadata?.(r) } : {}),
      });
      const endpoint: GatewayEndpoint = {
        url: handle.url,
        close: async () => {
          endpoints.delete(endpoint);
          await handle.close();
        },
      };
      endpoints.add(endpoint);
      return endpoint;
    },
    async connect(transport) {
      await (profiles.get(fallback) as ProfileServer).server.connect(transport);
    },
    heldTools: () => pinning?.held() ?? [],
    async approveTool(name) {
      if (!pinning) throw new Error("pinning is off (set gateway.pinning.file)");
      await pinning.approve(name);
      await publish(["tools"]);
    },
    async close() {
      closing = true;
      held.abortAll(new Error("the gateway is closing"));
      await Promise.allSettled([...endpoints].map((e) => e.close()));
      await Promise.allSettled([...profiles.values()].map((p) => p.server.close()));
      await Promise.allSettled([...upstreams.values()].map((u) => u.close()));
    },
  };
}

function allowAll() {
  const all = { allow: ["*"], deny: [] };
  return { tools: all, prompts: all, resources: all };
}
