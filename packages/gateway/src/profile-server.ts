import type { CallOptions, Client } from "@mcpkit/client";
import type { CallToolResult, Tool } from "@mcpkit/protocol";
import {
  createServer,
  type HandlerContext,
  isInputRequired,
  type Registered,
  type Server,
  type ServerOptions,
} from "@mcpkit/server";
import type { AuditRecord, AuditSink } from "./audit.js";
import type { Caller } from "./caller.js";
import type { Exposed, MergedCatalog } from "./catalog.js";
import { forwardHeld, forwardToolCall, type HeldCalls } from "./forward-tool.js";
import type { IdentityLimits } from "./limits.js";
import { allows } from "./rules.js";
import { registerSearchTools } from "./search-tools.js";
import type { GatewaySettings, ProfileRules } from "./types.js";
import type { Upstream } from "./upstream.js";

/** What every profile's server shares: the upstreams, the held calls, the limits and the audit log. */
export interface ProfileDeps {
  readonly upstreams: ReadonlyMap<string, Upstream>;
  readonly held: HeldCalls;
  readonly limits: IdentityLimits;
  readonly audit: AuditSink;
  readonly settings: GatewaySettings;
  readonly serverOptions: ServerOptions;
  /** Reports what nobody awaits (a tool the server could not register). */
  readonly onError: (error: Error) => void;
}

/** A profile's limits, as its server applies them per identity. */
export interface ProfileLimits {
  readonly callsPerMinute: number | undefined;
  readonly concurrency: number | undefined;
}

const ANONYMOUS_CALLER: Caller = {
  identity: { id: "anonymous", scopes: [], claims: {} },
  profile: "default",
};

/**
 * The `@mcpkit/server` of one profile: it offers only what the profile's rules let through, each item
 * forwarding to its upstream. Both eras come from the server itself. {@link ProfileServer.sync} re-registers
 * a kind after a catalog change (the server tells its clients the list changed).
 */
export class ProfileServer {
  readonly server: Server;
  private readonly registered = {
    tools: [] as Registered[],
    prompts: [] as Registered[],
    resources: [] as Registered[],
  };

  constructor(
    readonly name: string,
    private readonly rules: ProfileRules,
    private readonly limits: ProfileLimits,
    private readonly deps: ProfileDeps,
  ) {
    this.server = createServer(deps.serverOptions);
  }

  /** Registers the catalog's items this profile may see (tools: only those pinning offers), replacing the old ones of each kind given. */
  sync(
    catalog: MergedCatalog,
    offeredTools: readonly Exposed<Tool>[],
    kinds: ReadonlyArray<"tools" | "prompts" | "resources">,
  ): void {
    if (kinds.includes("tools")) this.syncTools(offeredTools.filter((t) => allows(this.rules.tools, t.name)));
    if (kinds.includes("prompts")) {
      this.replace(
        "prompts",
        catalog.prompts.filter((p) => allows(this.rules.prompts, p.name)),
        (p) => {
          const { name: _n, ...config } = p.item;
          return this.server.registerPrompt(p.name, config as never, (args, ctx) =>
            this.run(ctx, "prompts/get", p, args, () =>
              this.held(ctx, p.upstream, (client, options) =>
                client.getPrompt(p.item.name, args as Record<string, string>, options),
              ),
            ),
          );
        },
      );
    }
    if (kinds.includes("resources")) {
      const resources = catalog.resources.filter((r) => allows(this.rules.resources, r.name));
      const templates = catalog.templates.filter((t) => allows(this.rules.resources, t.name));
      this.replace("resources", [...resources, ...templates], (r) => {
        const item = r.item as unknown as Record<string, unknown>;
        const { uri: _u, uriTemplate, ...config } = item;
        const read = (uri: string, ctx: HandlerContext) =>
          this.run(ctx, "resources/read", r, { uri }, () =>
            this.held(ctx, r.upstream, (client, options) =>
              client.readResource(uri, Object.assign(options, { refresh: true })),
            ),
          );
        return uriTemplate === undefined
          ? this.server.registerResource(r.name, config as never, read)
          : this.server.registerResourceTemplate(r.name, config as never, (uri, _vars, ctx) =>
              read(uri, ctx),
            );
      });
    }
  }

  private syncTools(tools: readonly Exposed<Tool>[]): void {
    const search = this.deps.settings.searchTools;
    const direct = search.enabled ? tools.filter((t) => search.alwaysOffer.includes(t.name)) : tools;
    this.replace("tools", direct, (t) => this.registerTool(t));
    if (search.enabled) {
      this.registered.tools.push(
        ...registerSearchTools(this.server, tools, (t, args, ctx) => this.callTool(t, args, ctx)),
      );
    }
  }

  private registerTool(t: Exposed<Tool>): Registered {
    const { name: _n, execution: _e, ...config } = t.item as Tool & { execution?: unknown };
    return this.server.registerTool(t.name, config as never, (args, ctx) =>
      this.callTool(t, args as Record<string, unknown>, ctx),
    );
  }

  /** Calls an exposed tool for the caller of `ctx` (the search meta-tool calls through here too). */
  callTool(t: Exposed<Tool>, args: Record<string, unknown>, ctx: HandlerContext): Promise<CallToolResult> {
    const caller = callerOf(ctx);
    return this.run(ctx, "tools/call", t, args, () =>
      forwardToolCall(this.deps.held, this.upstream(t.upstream), t.item.name, args, ctx, caller.identity.id),
    );
  }

  /** Runs one forwarded request under the caller's limits, writing its audit line. */
  private async run<T>(
    ctx: HandlerContext,
    method: string,
    item: Exposed<{ name?: string; uri?: string; uriTemplate?: string }>,
    args: unknown,
    forward: () => Promise<T>,
  ): Promise<T> {
    const caller = callerOf(ctx);
    const started = performance.now();
    const record: AuditRecord = {
      time: new Date().toISOString(),
      identity: caller.identity.id,
      profile: caller.profile,
      method,
      name: item.name,
      upstream: item.upstream,
      upstreamName: item.item.name ?? item.item.uri ?? item.item.uriTemplate ?? item.name,
      outcome: "ok",
      durationMs: 0,
    };
    if (this.deps.settings.audit.arguments) record.arguments = args;
    const slot = this.deps.limits.acquire(
      caller.identity.id,
      this.limits.callsPerMinute,
      this.limits.concurrency,
    );
    if (typeof slot !== "function") {
      const text = `rate limit: ${caller.identity.id} is over ${slot.limit} (${slot.value})`;
      this.write(record, started, "limited", text);
      if (method === "tools/call") return { content: [{ type: "text", text }], isError: true } as T;
      throw new Error(text);
    }
    try {
      const result = await forward();
      const isError = (result as { isError?: boolean }).isError === true;
      this.write(record, started, isError ? "tool-error" : "ok", isError ? firstText(result) : undefined);
      return result;
    } catch (error) {
      if (isInputRequired(error)) this.write(record, started, "input-required");
      else this.write(record, started, "error", error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      slot();
    }
  }

  private write(record: AuditRecord, started: number, outcome: AuditRecord["outcome"], error?: string): void {
    record.outcome = outcome;
    record.durationMs = Math.round((performance.now() - started) * 10) / 10;
    if (error !== undefined) record.error = error;
    try {
      this.deps.audit(record);
    } catch (failure) {
      this.deps.onError(new Error(`the audit log could not be written: ${(failure as Error).message}`));
    }
  }

  private replace<T>(
    kind: "tools" | "prompts" | "resources",
    items: readonly T[],
    register: (item: T) => Registered,
  ): void {
    for (const r of this.registered[kind]) r.remove();
    this.registered[kind] = [];
    for (const item of items) {
      try {
        this.registered[kind].push(register(item));
      } catch (error) {
        this.deps.onError(new Error(`profile "${this.name}": ${(error as Error).message}`, { cause: error }));
      }
    }
  }

  /** Forwards a prompt or resource request as a held call (its upstream may ask the client too). */
  private held<T>(
    ctx: HandlerContext,
    upstream: string,
    request: (client: Client, options: CallOptions) => Promise<T>,
  ): Promise<T> {
    const target = this.upstream(upstream);
    const owner = callerOf(ctx).identity.id;
    return forwardHeld(this.deps.held, target, (call) => target.run(call, request), ctx, owner);
  }

  private upstream(name: string): Upstream {
    return this.deps.upstreams.get(name) as Upstream;
  }
}

function callerOf(ctx: HandlerContext): Caller {
  const info = ctx.authInfo as Caller | undefined;
  return info && typeof info === "object" && "identity" in info ? info : ANONYMOUS_CALLER;
}

function firstText(result: unknown): string | undefined {
  const content = (result as { content?: Array<{ type?: string; text?: string }> }).content;
  return content?.find((c) => c.type === "text")?.text;
}
