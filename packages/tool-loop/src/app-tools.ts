import type { ToolDescriptor } from "./tool-source.js";

// MCP Apps (io.modelcontextprotocol/ui) metadata as a server lists it: `_meta.ui.resourceUri` (or the
// deprecated flat `_meta["ui/resourceUri"]`) and `_meta.ui.visibility`. Read here, structurally: the loop
// depends on no client package.
function uiMeta(tool: ToolDescriptor): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return typeof ui === "object" && ui !== null ? (ui as Record<string, unknown>) : undefined;
}

/**
 * Whether the model may see and call a tool: its MCP Apps visibility (default `["model", "app"]`)
 * includes `"model"`. `aggregateTools` leaves out the others (`visibility: ["app"]`: tools only a view
 * calls, through its host).
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#visibility
 */
export function isModelVisible(tool: ToolDescriptor): boolean {
  const visibility = uiMeta(tool)?.visibility;
  return !Array.isArray(visibility) || visibility.includes("model");
}

/**
 * The `ui://` view a host renders next to a tool's results (MCP Apps), or `undefined`. A loop event
 * carries the tool as listed: `toolUiResource(event.info.descriptor)` on a `tool-call` event.
 */
export function toolUiResource(tool: ToolDescriptor | undefined): string | undefined {
  if (tool === undefined) return undefined;
  const nested = uiMeta(tool)?.resourceUri;
  const uri = nested !== undefined ? nested : tool._meta?.["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}
