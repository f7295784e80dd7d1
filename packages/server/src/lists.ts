import { McpError } from "@mcpkit/protocol";
import type { CallInfo } from "./internal/context.js";
import { decodeCursor, encodeCursor } from "./internal/cursor.js";
import type { ServerCore } from "./server-core.js";

type Params = Record<string, unknown>;
type ListName = "tools" | "legacyTools" | "prompts" | "resources" | "templates";

/**
 * One page of a registry list under `key`, from `params.cursor` (opaque, bound to the list's key), with
 * `nextCursor` when more follow. Pages hold `core.pageSize` items.
 * @throws McpError -32602 for a cursor this server did not issue or one past the end.
 */
export function page(core: ServerCore, list: ListName, key: string, p: Params): Params {
  const all = core.registry.list(list);
  const cursor = p.cursor;
  let offset = 0;
  if (cursor !== undefined && cursor !== "") {
    const decoded = typeof cursor === "string" ? decodeCursor(key, cursor) : undefined;
    if (decoded === undefined || decoded > all.length) throw McpError.invalidParams("Invalid cursor");
    offset = decoded;
  }
  const end = offset + core.pageSize;
  const result: Params = { [key]: all.slice(offset, end) };
  if (end < all.length) result.nextCursor = encodeCursor(key, end);
  return result;
}

/** `tools/list`: modern descriptors with cache hints, or legacy ones (object-rooted outputSchema only). */
export function listTools(core: ServerCore, call: CallInfo, p: Params): Params {
  if (call.era === "modern") return core.cacheHints(page(core, "tools", "tools", p));
  return page(core, "legacyTools", "tools", p);
}

/** `prompts/list` (modern: with cache hints). */
export function listPrompts(core: ServerCore, call: CallInfo, p: Params): Params {
  const result = page(core, "prompts", "prompts", p);
  return call.era === "modern" ? core.cacheHints(result) : result;
}

/** `resources/list`: static resources, then what templates list (modern: with cache hints). */
export function listResources(core: ServerCore, call: CallInfo, p: Params): Params {
  const result = page(core, "resources", "resources", p);
  return call.era === "modern" ? core.cacheHints(result) : result;
}

/** `resources/templates/list` (modern: with cache hints). */
export function listResourceTemplates(core: ServerCore, call: CallInfo, p: Params): Params {
  const result = page(core, "templates", "resourceTemplates", p);
  return call.era === "modern" ? core.cacheHints(result) : result;
}
