import { isModelVisible } from "./app-tools.js";
import { ToolNameCollisionError, UnknownToolError } from "./errors.js";
import { isProviderToolName, MAX_TOOL_NAME_LENGTH, sanitizeToolName, withHash } from "./naming.js";
import type {
  ToolCallOutcome,
  ToolDescriptor,
  ToolSource,
  ToolSourceCallOptions,
  ToolSourceSubscription,
} from "./tool-source.js";

/** Which tools to keep: a list of server-side names, or a predicate on the tool. */
export type ToolFilter = readonly string[] | ((tool: ToolDescriptor) => boolean);

/** One source of an aggregation, with how its tools are named and filtered. */
export interface ToolSourceEntry {
  /** The MCP client (or anything with `listTools` and `callTool`). */
  readonly source: ToolSource;
  /**
   * Put before each tool's name, joined by the separator (`"fs"` + `"read"` → `"fs__read"`). The
   * prefix applies to the name the model sees only; the server is always called by its own name.
   */
  readonly prefix?: string | undefined;
  /** A label for errors and the naming hook; defaults to the prefix, else the entry's index. */
  readonly id?: string | undefined;
  /** Keep only these tools of this source (server-side names or a predicate). */
  readonly include?: ToolFilter | undefined;
  /** Drop these tools of this source (applied after `include`). */
  readonly exclude?: ToolFilter | undefined;
}

/** What the naming hook learns about the tool it names. */
export interface ToolNamingContext {
  /** The entry's id (its prefix, or its index as a string). */
  readonly sourceId: string;
  /** The entry's prefix, if it has one. */
  readonly prefix: string | undefined;
  /** The entry's position in the source list. */
  readonly index: number;
}

/** Options of {@link aggregateTools}. */
export interface AggregateToolsOptions {
  /** Joins a prefix and a tool name. Default `"__"`. */
  readonly separator?: string | undefined;
  /**
   * Names each tool instead of `prefix + separator + name`. The result still goes through the
   * provider-name rule (invalid characters replaced, long names cut with a hash) and the collision check.
   */
  readonly name?: ((tool: ToolDescriptor, context: ToolNamingContext) => string) | undefined;
  /** Keep only these tools, in every source (server-side names or a predicate). */
  readonly include?: ToolFilter | undefined;
  /** Drop these tools, in every source. */
  readonly exclude?: ToolFilter | undefined;
  /** The longest name handed out. Default 64, the providers' limit. */
  readonly maxNameLength?: number | undefined;
  /** Aborts the `listTools` calls. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Follow each source's tool list: subscribe to `notifications/tools/list_changed` (sources with
   * `subscribe`, such as `@mcpkit/client`), so `stale` turns true when a server changes its tools and
   * `runToolLoop` offers the new list on its next step. Call `close()` on the aggregation to stop.
   * Sources without `subscribe` are followed through `toolsStale` alone. Default false.
   */
  readonly live?: boolean | undefined;
}

/**
 * A tool as the model sees it: the server's descriptor under its local name, and where it lives.
 */
export interface AggregatedTool extends ToolDescriptor {
  /** The local name: unique in the aggregation and valid for every provider. */
  readonly name: string;
  /** The tool's own name on its server. */
  readonly serverName: string;
  /** The id of the source entry the tool came from. */
  readonly sourceId: string;
}

/**
 * The tools a loop can offer a model, and a way to call them by the names it offered.
 *
 * `runToolLoop` needs only this; `aggregateTools` builds one from MCP clients, and a hand-written
 * object fits too.
 */
export interface Toolbox {
  /** The tools, under the names the model sees. */
  readonly tools: readonly ToolDescriptor[];
  /**
   * Calls a tool by the name the model sees.
   * @throws {UnknownToolError} when no tool has that name.
   */
  call(
    name: string,
    args: Record<string, unknown>,
    options?: ToolSourceCallOptions,
  ): Promise<ToolCallOutcome>;
}

/** Where a local tool name leads: the source and the tool's name there. */
export interface ResolvedTool {
  /** The source that serves the tool. */
  readonly source: ToolSource;
  /** The source entry's id. */
  readonly sourceId: string;
  /** The tool's own name on its server. */
  readonly serverName: string;
}

/** The tools of many sources under unique provider-valid names, with the way back to each server. */
export interface AggregatedTools extends Toolbox {
  /** Every tool, in source order then server order (the current list, after any refresh). */
  readonly tools: readonly AggregatedTool[];
  /** The source and server-side name behind a local name, or `undefined` for an unknown name. */
  resolve(name: string): ResolvedTool | undefined;
  /** The local name of a server's tool, or `undefined` when that tool is not in the aggregation. */
  localName(sourceId: string, serverName: string): string | undefined;
  /**
   * True when a source reports a changed tool list (`toolsStale`, set by `@mcpkit/client` on
   * `notifications/tools/list_changed`) that this aggregation has not re-listed yet.
   */
  readonly stale: boolean;
  /**
   * Lists the tools again (the stale sources only, unless `all`) and rebuilds the names with the same
   * rules. A tool that stays keeps its local name; a vanished one becomes unknown (`call` rejects with
   * `UnknownToolError`, which the loop answers as an error result). A name once handed out is never
   * given to another tool for the aggregation's life: a new tool that wants the name of one that left
   * (another server's `search`, say) gets it with a hash suffix, so a model's call by the old name can
   * never land on a different server. Resolves with whether the list of names changed.
   * @throws {ToolNameCollisionError} when the new lists collide; the previous list is kept then.
   */
  refresh(options?: { readonly signal?: AbortSignal | undefined; readonly all?: boolean }): Promise<boolean>;
  /** Ends the subscriptions of a `live` aggregation; idempotent, and a no-op for one that is not live. */
  close(): Promise<void>;
}

/** True when `toolbox` can follow tool-list changes (an aggregation from `aggregateTools`). */
export function isRefreshable(
  toolbox: Toolbox,
): toolbox is Toolbox & Pick<AggregatedTools, "stale" | "refresh"> {
  return typeof (toolbox as Partial<AggregatedTools>).refresh === "function";
}

/** What `aggregateTools` takes: one source, a list of sources or entries, or sources keyed by prefix. */
export type ToolSources =
  | ToolSource
  | readonly (ToolSource | ToolSourceEntry)[]
  | { readonly [prefix: string]: ToolSource | Omit<ToolSourceEntry, "prefix"> };

interface Built {
  readonly tools: readonly AggregatedTool[];
  readonly table: ReadonlyMap<string, ResolvedTool>;
  readonly reverse: ReadonlyMap<string, string>;
  /** Every local name handed out so far (this build's and earlier ones'), to the tool it was given to. */
  readonly pinned: ReadonlyMap<string, string>;
}

/** The key of a server's tool in an aggregation: its source id and server-side name. */
function toolKey(sourceId: string, serverName: string): string {
  return `${sourceId}\u0000${serverName}`;
}

/**
 * Lists the tools of one or more MCP servers and puts them in one list under names that are unique and
 * valid for every provider (`^[a-zA-Z0-9_-]{1,64}$`), remembering where each came from.
 *
 * Naming: `prefix + separator + name` per source (or the `name` hook's choice), then made valid for
 * providers (characters outside the rule become `_`; a name too long, or one whose rewriting clashes with
 * another tool's, ends in `_` and a hash of the wanted name). The mapping is a table, so every local name
 * leads back to exactly one source and server-side name: the server always sees its own name.
 *
 * Sources given as an object are keyed by their prefix: `aggregateTools({ fs, memory })` names
 * `fs__read_file` and `memory__create_entities`.
 *
 * Selection: `include` / `exclude` per source entry and for all sources, each a list of server-side
 * names or a predicate on the tool (its name, annotations, schema): `exclude: (t) =>
 * t.annotations?.destructiveHint === true` offers no destructive tool.
 *
 * Listing is done here, and again on `refresh()`; `runToolLoop` refreshes a `stale` aggregation before
 * its next model call, so a server's `tools/list_changed` reaches the model on the next step.
 *
 * @throws {ToolNameCollisionError} when two tools would get the same name before rewriting (for
 *   example two sources without prefixes that both offer `search`). This happens before any model call.
 */
export async function aggregateTools(
  sources: ToolSources,
  options: AggregateToolsOptions = {},
): Promise<AggregatedTools> {
  const entries = normalizeSources(sources);
  const listed = await Promise.all(
    entries.map(async (entry) => readTools(await entry.source.listTools({ signal: options.signal }))),
  );
  let built = buildTools(entries, listed, options, new Map());
  // Per entry: a list_changed arrived through its subscription since it was last listed.
  const changed = entries.map(() => false);
  const subscriptions = options.live
    ? await Promise.all(
        entries.map((entry, index) =>
          follow(entry.source, () => {
            changed[index] = true;
          }),
        ),
      )
    : [];
  const isStale = (index: number) => changed[index] === true || entries[index]!.source.toolsStale === true;

  return {
    get tools() {
      return built.tools;
    },
    get stale() {
      return entries.some((_entry, index) => isStale(index));
    },
    async refresh(refreshOptions = {}) {
      const next = await Promise.all(
        entries.map(async (entry, index) => {
          if (refreshOptions.all !== true && !isStale(index)) return listed[index]!;
          changed[index] = false;
          return readTools(await entry.source.listTools({ signal: refreshOptions.signal, refresh: true }));
        }),
      );
      // Names handed out before stay with their tools: a refresh never moves one to another tool.
      const rebuilt = buildTools(entries, next, options, built.pinned);
      listed.splice(0, listed.length, ...next);
      const before = built.tools.map((tool) => tool.name).join("\u0000");
      built = rebuilt;
      return before !== rebuilt.tools.map((tool) => tool.name).join("\u0000");
    },
    async close() {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription?.close().catch(() => {})));
    },
    resolve: (name) => built.table.get(name),
    localName: (sourceId, serverName) => built.reverse.get(toolKey(sourceId, serverName)),
    call(name, args, callOptions) {
      const target = built.table.get(name);
      if (!target) return Promise.reject(new UnknownToolError(name));
      return target.source.callTool(target.serverName, args, callOptions);
    },
  };
}

// Subscribes to a source's list changes; resolves once the server acknowledged (or refused: then the
// source is followed through toolsStale alone), so no change made after aggregateTools returns is missed.
async function follow(source: ToolSource, onChange: () => void): Promise<ToolSourceSubscription | undefined> {
  if (typeof source.subscribe !== "function") return undefined;
  const subscription = source.subscribe({ toolsListChanged: true });
  void (async () => {
    try {
      for await (const notification of subscription) {
        if (notification.method === "notifications/tools/list_changed") onChange();
      }
    } catch {
      // The subscription ended with the connection; a call on a closed client fails on its own.
    }
  })();
  try {
    await subscription.acknowledged;
  } catch {
    return undefined;
  }
  return subscription;
}

// `pinned`: the names earlier builds handed out, each to its tool's key. A tool keeps its pinned name; no
// other tool gets it, even after its own tool vanished (it gets the wanted name with a hash suffix).
function buildTools(
  entries: readonly ToolSourceEntry[],
  listed: readonly (readonly ToolDescriptor[])[],
  options: AggregateToolsOptions,
  pinned: ReadonlyMap<string, string>,
): Built {
  const separator = options.separator ?? "__";
  const maxLength = options.maxNameLength ?? MAX_TOOL_NAME_LENGTH;
  interface Pending {
    readonly tool: ToolDescriptor;
    readonly entry: ToolSourceEntry;
    readonly sourceId: string;
    readonly wanted: string;
  }
  const pinnedTo = new Map<string, string>();
  for (const [name, key] of pinned) pinnedTo.set(key, name);
  const pending: Pending[] = [];
  const byWanted = new Map<string, Pending>();
  entries.forEach((entry, index) => {
    const sourceId = entry.id ?? entry.prefix ?? String(index);
    const context: ToolNamingContext = { sourceId, prefix: entry.prefix, index };
    for (const tool of listed[index] ?? []) {
      // MCP Apps: a tool only a view may call (`visibility: ["app"]`) is never offered to the model.
      if (!isModelVisible(tool)) continue;
      if (!passes(tool, entry.include, entry.exclude) || !passes(tool, options.include, options.exclude))
        continue;
      const wanted = options.name
        ? options.name(tool, context)
        : entry.prefix !== undefined && entry.prefix !== ""
          ? `${entry.prefix}${separator}${tool.name}`
          : tool.name;
      const item: Pending = { tool, entry, sourceId, wanted };
      const clash = byWanted.get(wanted);
      // Two tools that want one name collide, unless one holds a name already (given by an earlier build).
      const holds = (other: Pending) => pinnedTo.has(toolKey(other.sourceId, other.tool.name));
      if (clash && !holds(clash) && !holds(item)) {
        throw new ToolNameCollisionError(wanted, [
          `${clash.sourceId}/${clash.tool.name}`,
          `${sourceId}/${tool.name}`,
        ]);
      }
      byWanted.set(wanted, item);
      pending.push(item);
    }
  });

  const keyOf = (item: Pending) => toolKey(item.sourceId, item.tool.name);
  // A name is free for a tool when no earlier build gave it to another tool.
  const freeFor = (name: string, key: string) => {
    const owner = pinned.get(name);
    return owner === undefined || owner === key;
  };
  // Names given before go back to their tools first; then the names that are already valid (and free),
  // so rewriting another name can never take them.
  const used = new Set<string>();
  for (const item of pending) {
    const kept = pinnedTo.get(keyOf(item));
    if (kept !== undefined) used.add(kept);
  }
  for (const item of pending) {
    if (
      !pinnedTo.has(keyOf(item)) &&
      isProviderToolName(item.wanted, maxLength) &&
      freeFor(item.wanted, keyOf(item))
    )
      used.add(item.wanted);
  }
  const finalNames = pending.map((item) => {
    const key = keyOf(item);
    const kept = pinnedTo.get(key);
    if (kept !== undefined) return kept;
    if (isProviderToolName(item.wanted, maxLength) && freeFor(item.wanted, key)) return item.wanted;
    const taken = (candidate: string) => used.has(candidate) || !freeFor(candidate, key);
    let name = sanitizeToolName(item.wanted, maxLength);
    if (taken(name)) name = withHash(name, item.wanted, maxLength);
    // That one too was given before (to a tool that went away): the tool's own key decides the hash.
    if (taken(name)) name = withHash(sanitizeToolName(item.wanted, maxLength), key, maxLength);
    if (taken(name)) throw new ToolNameCollisionError(name, [`${item.sourceId}/${item.tool.name}`]);
    used.add(name);
    return name;
  });

  const tools: AggregatedTool[] = [];
  const table = new Map<string, ResolvedTool>();
  const reverse = new Map<string, string>();
  const nextPinned = new Map(pinned);
  pending.forEach((item, i) => {
    const name = finalNames[i]!;
    tools.push({ ...item.tool, name, serverName: item.tool.name, sourceId: item.sourceId });
    table.set(name, { source: item.entry.source, sourceId: item.sourceId, serverName: item.tool.name });
    reverse.set(keyOf(item), name);
    nextPinned.set(name, keyOf(item));
  });
  return { tools, table, reverse, pinned: nextPinned };
}

function isToolSource(value: unknown): value is ToolSource {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ToolSource).listTools === "function" &&
    typeof (value as ToolSource).callTool === "function"
  );
}

function normalizeSources(sources: ToolSources): ToolSourceEntry[] {
  if (isToolSource(sources)) return [{ source: sources }];
  if (Array.isArray(sources)) {
    return (sources as readonly (ToolSource | ToolSourceEntry)[]).map((item) =>
      isToolSource(item) ? { source: item } : item,
    );
  }
  return Object.entries(sources as Record<string, ToolSource | Omit<ToolSourceEntry, "prefix">>).map(
    ([prefix, item]) => (isToolSource(item) ? { source: item, prefix } : { ...item, prefix }),
  );
}

function readTools(
  listed: readonly ToolDescriptor[] | { readonly tools: readonly ToolDescriptor[] },
): readonly ToolDescriptor[] {
  return Array.isArray(listed) ? listed : (listed as { readonly tools: readonly ToolDescriptor[] }).tools;
}

function passes(
  tool: ToolDescriptor,
  include: ToolFilter | undefined,
  exclude: ToolFilter | undefined,
): boolean {
  if (include && !matches(include, tool)) return false;
  if (exclude && matches(exclude, tool)) return false;
  return true;
}

function matches(filter: ToolFilter, tool: ToolDescriptor): boolean {
  return typeof filter === "function" ? filter(tool) : filter.includes(tool.name);
}

/**
 * True when `value` is a {@link Toolbox} (a `tools` list and a `call` method) rather than sources.
 */
export function isToolbox(value: unknown): value is Toolbox {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as Toolbox).tools) &&
    typeof (value as Toolbox).call === "function"
  );
}

/**
 * A toolbox as given, or `aggregateTools(sources, options)` of sources: the way the bridges' helpers
 * accept both an aggregation made once and the clients themselves.
 */
export async function toToolbox(
  input: Toolbox | ToolSources,
  options: AggregateToolsOptions = {},
): Promise<Toolbox> {
  return isToolbox(input) ? input : aggregateTools(input, options);
}
