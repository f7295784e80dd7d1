import type { Cassette } from "./cassette.js";

/** One listed item (a tool, prompt, resource or template) as the server described it. */
export type SurfaceItem = Record<string, unknown>;

/**
 * What a server offers, as a cassette shows it: the answers of its discovery and list requests. A list
 * the session never asked for is absent (unknown), not empty.
 */
export interface ServerSurface {
  capabilities: Record<string, unknown>;
  tools?: SurfaceItem[];
  prompts?: SurfaceItem[];
  resources?: SurfaceItem[];
  resourceTemplates?: SurfaceItem[];
}

const LISTS: Record<string, [keyof Omit<ServerSurface, "capabilities">, string]> = {
  "tools/list": ["tools", "tools"],
  "prompts/list": ["prompts", "prompts"],
  "resources/list": ["resources", "resources"],
  "resources/templates/list": ["resourceTemplates", "resourceTemplates"],
};

/**
 * The surface of the server in `cassette`: capabilities from its `initialize` or `server/discover`
 * result, and every item of its `tools/list`, `prompts/list`, `resources/list` and
 * `resources/templates/list` results (all pages; a name listed twice keeps its last description).
 * A list the session never asked for is left out.
 */
export function surfaceFromCassette(cassette: Cassette): ServerSurface {
  const surface: ServerSurface = { capabilities: {} };
  const methods = new Map<string, string>();
  for (const { from, message } of cassette.events) {
    const m = message as { id?: unknown; method?: unknown; result?: Record<string, unknown> };
    if (from === "client" && typeof m.method === "string" && m.id !== undefined) {
      methods.set(JSON.stringify(m.id), m.method);
      continue;
    }
    if (from !== "server" || m.result === undefined) continue;
    const method = methods.get(JSON.stringify(m.id));
    if (method === "initialize" || method === "server/discover") {
      const capabilities = m.result.capabilities;
      if (capabilities && typeof capabilities === "object")
        surface.capabilities = capabilities as Record<string, unknown>;
      continue;
    }
    const list = method === undefined ? undefined : LISTS[method];
    if (!list) continue;
    const items = m.result[list[1]];
    if (!Array.isArray(items)) continue;
    const target = surface[list[0]] ?? [];
    surface[list[0]] = target;
    for (const item of items as SurfaceItem[]) {
      const key = itemKey(list[0], item);
      const at = target.findIndex((other) => itemKey(list[0], other) === key);
      if (at >= 0) target[at] = item;
      else target.push(item);
    }
  }
  return surface;
}

/** The identity of an item: a resource by `uri`, a template by `uriTemplate`, others by `name`. */
export function itemKey(kind: keyof Omit<ServerSurface, "capabilities">, item: SurfaceItem): string {
  if (kind === "resources") return String(item.uri);
  if (kind === "resourceTemplates") return String(item.uriTemplate);
  return String(item.name);
}
