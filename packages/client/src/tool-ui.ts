/** Who may call a tool under MCP Apps: the model (the agent's tool list), the app (its view), or both. */
export type ToolVisibility = "model" | "app";

/** The subset of a listed tool that MCP Apps reads: its `_meta`. */
export interface ToolWithMeta {
  readonly _meta?: { readonly [key: string]: unknown } | undefined;
}

// The flat key of the first drafts; ext-apps still reads it and the stable spec lists it as deprecated.
const FLAT_RESOURCE_URI_KEY = "ui/resourceUri";

function uiMetaOf(tool: ToolWithMeta): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return typeof ui === "object" && ui !== null ? (ui as Record<string, unknown>) : undefined;
}

/**
 * The `ui://` resource that renders a tool's results (MCP Apps), or `undefined` when it has none.
 *
 * Reads `_meta.ui.resourceUri`, then the deprecated flat `_meta["ui/resourceUri"]` that 1.x servers may
 * still send. A value that is not a `ui://` URI counts as none: a host never fetches a view from
 * anywhere else.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#resource-discovery
 */
export function toolUiResourceUri(tool: ToolWithMeta): string | undefined {
  const nested = uiMetaOf(tool)?.resourceUri;
  const uri = nested !== undefined ? nested : tool._meta?.[FLAT_RESOURCE_URI_KEY];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}

/**
 * A tool's MCP Apps visibility: `_meta.ui.visibility`, default `["model", "app"]`. Values other than
 * `"model"` and `"app"` are dropped; a list that was given but holds neither means no one.
 */
export function toolVisibility(tool: ToolWithMeta): readonly ToolVisibility[] {
  const visibility = uiMetaOf(tool)?.visibility;
  if (!Array.isArray(visibility)) return ["model", "app"];
  return visibility.filter((v): v is ToolVisibility => v === "model" || v === "app");
}
