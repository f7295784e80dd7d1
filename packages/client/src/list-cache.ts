import {
  findXMcpHeaderProblem,
  ResultType,
  readResultType,
  type ServerCapabilities,
  type Tool,
} from "@mcpkit/protocol";
import { InvalidResultError } from "./errors.js";
import type { OutputValidators } from "./internal/output-validator.js";
import { paginate } from "./internal/paginate.js";
import { isObject } from "./internal/util.js";
import type { ListOptions } from "./options.js";
import type { RequestChain } from "./request-chain.js";
import { cacheHints, type ResponseCache } from "./response-cache.js";
import type { Session, SessionSource } from "./session.js";
import { ToolNameWarnings } from "./tool-names.js";

/** The four lists a server offers. */
export type ListKind = "tools" | "prompts" | "resources" | "resourceTemplates";

const LISTS: Record<ListKind, { method: string; key: string; capability: keyof ServerCapabilities }> = {
  tools: { method: "tools/list", key: "tools", capability: "tools" },
  prompts: { method: "prompts/list", key: "prompts", capability: "prompts" },
  resources: { method: "resources/list", key: "resources", capability: "resources" },
  resourceTemplates: {
    method: "resources/templates/list",
    key: "resourceTemplates",
    capability: "resources",
  },
};

/** The lists each `list_changed` notification makes stale (and drops from the response cache). */
const STALE_KIND: Record<string, ListKind[]> = {
  "notifications/tools/list_changed": ["tools"],
  "notifications/prompts/list_changed": ["prompts"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
};

/**
 * The server's lists, every page fetched, kept in the client's {@link ResponseCache} as one entry per
 * list: modern results for their `ttlMs` (the shortest of the pages; `private` when any page is),
 * legacy ones until `list_changed` when the server promises to send it. A `list_changed` marks the list
 * stale and drops its entry; one that arrives while the list is being fetched keeps that fetch out of the
 * cache and the list stale. The last tool list also indexes tools by name (for `Mcp-Param-*` headers) and
 * resets the structured-output validators; over HTTP a tool whose `x-mcp-header` annotations are invalid
 * is dropped (reported to `onError`).
 * @see SPEC.md §3.9 Caching, §3.11
 */
export class ListCache {
  readonly #chain: RequestChain;
  readonly #validators: OutputValidators;
  readonly #onError: (error: unknown) => void;
  readonly #cache: ResponseCache;
  readonly #stale: Record<ListKind, boolean> = {
    tools: false,
    prompts: false,
    resources: false,
    resourceTemplates: false,
  };
  readonly #generation: Record<ListKind, number> = {
    tools: 0,
    prompts: 0,
    resources: 0,
    resourceTemplates: 0,
  };
  /** The last list fetched (or read from the cache) of each kind: what `client.tools` and the like show. */
  readonly #last: Record<ListKind, readonly unknown[] | undefined> = {
    tools: undefined,
    prompts: undefined,
    resources: undefined,
    resourceTemplates: undefined,
  };
  #tools = new Map<string, Tool>();
  /** The tool list the index was built from (a cache hit of the same array needs no rebuild). */
  #indexed: unknown[] | undefined;
  /** Warns once per name about a server tool whose name breaks the spec's rules (the tool is kept). */
  readonly #names: ToolNameWarnings;

  constructor(
    chain: RequestChain,
    validators: OutputValidators,
    onError: (error: unknown) => void,
    cache: ResponseCache,
  ) {
    this.#chain = chain;
    this.#validators = validators;
    this.#onError = onError;
    this.#cache = cache;
    this.#names = new ToolNameWarnings(onError);
  }

  /** True after the list's `list_changed` until it is listed again. */
  isStale(kind: ListKind): boolean {
    return this.#stale[kind];
  }

  /** The last list of `kind` this client saw, or `undefined` before the first list. */
  last(kind: ListKind): readonly unknown[] | undefined {
    return this.#last[kind];
  }

  /** A tool of the last tool list, by name. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Takes a notification: a `list_changed` makes its lists stale and drops them from the cache. */
  onNotification(method: string): void {
    const kinds = STALE_KIND[method];
    if (kinds === undefined) return;
    for (const kind of kinds) {
      this.#stale[kind] = true;
      this.#generation[kind]++;
      this.#cache.invalidate(LISTS[kind].method)?.catch(this.#onError);
    }
  }

  /**
   * Every item of a list, all pages, from the cache while it is fresh (unless `refresh`), else from the
   * session `sessions` gives.
   * @throws InvalidResultError on a page without its list, or a repeated cursor (a loop).
   */
  async list(kind: ListKind, call: ListOptions | undefined, sessions: SessionSource): Promise<unknown[]> {
    const spec = LISTS[kind];
    const key = this.#cache.key(spec.method, "");
    if (this.#cache.enabled && !call?.refresh && !this.#stale[kind]) {
      const hit = (await this.#cache.get(key)) as unknown[] | undefined;
      if (hit !== undefined) {
        // An entry another client stored (a shared store): index it as if it had been fetched here.
        if (kind === "tools" && hit !== this.#indexed) this.#indexTools(hit as Tool[]);
        this.#last[kind] = hit;
        return hit;
      }
    }
    const s = await sessions.ensure();
    const startGeneration = this.#generation[kind];
    const ticket = this.#cache.ticket();
    const items: unknown[] = [];
    let ttl: number | null = Number.POSITIVE_INFINITY;
    let scope: "public" | "private" = s.era === "modern" ? "public" : "private";
    const fetchPage = async (cursor: string | undefined) => {
      const page = await this.#chain.request(s, spec.method, cursor === undefined ? {} : { cursor }, call);
      if (!isObject(page))
        throw new InvalidResultError(spec.method, `${spec.method} returned no result object`);
      return page;
    };
    await paginate(spec.method, fetchPage, (page) => {
      if (s.era === "modern" && readResultType(page) !== ResultType.Complete) {
        throw new InvalidResultError(spec.method, `Unexpected resultType ${JSON.stringify(page.resultType)}`);
      }
      const list = page[spec.key];
      if (!Array.isArray(list))
        throw new InvalidResultError(spec.method, `${spec.method} returned no "${spec.key}" list`);
      items.push(...list);
      if (s.era === "modern") {
        const hints = cacheHints(page);
        if (ttl !== null) ttl = Math.min(ttl, hints.ttlMs);
        if (hints.scope === "private") scope = "private";
      } else {
        // Legacy results carry no TTL: keep them until list_changed, if the server promises to send it.
        const capability = s.serverCapabilities[spec.capability] as { listChanged?: boolean } | undefined;
        ttl = capability?.listChanged === true && ttl !== 0 ? null : 0;
      }
    });
    let result = items;
    if (kind === "tools") result = this.#acceptTools(s, items as Tool[]);
    // A list_changed that arrived while we listed means this list may already be old: still stale.
    if (this.#generation[kind] === startGeneration) this.#stale[kind] = false;
    await this.#cache.put(key, ticket, result, ttl === Number.POSITIVE_INFINITY ? 0 : ttl, scope);
    this.#last[kind] = result;
    return result;
  }

  #acceptTools(s: Session, tools: Tool[]): Tool[] {
    this.#names.check(tools);
    let kept = tools;
    if (s.era === "modern" && s.httpLike) {
      // Over HTTP a tool whose x-mcp-header annotations are invalid must be dropped. @see SPEC.md §3.11
      kept = tools.filter((tool) => {
        const problem = isObject(tool) ? findXMcpHeaderProblem(tool.inputSchema) : "not an object";
        if (problem)
          this.#onError(new InvalidResultError("tools/list", `Dropped tool "${tool?.name}": ${problem}`));
        return problem === undefined;
      });
    }
    this.#indexTools(kept);
    return kept;
  }

  #indexTools(tools: Tool[]): void {
    this.#tools = new Map(
      tools.filter((t) => isObject(t) && typeof t.name === "string").map((t) => [t.name, t]),
    );
    this.#validators.reset(tools);
    this.#indexed = tools;
  }
}
