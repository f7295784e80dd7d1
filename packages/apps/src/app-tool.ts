import type { ToolVisibility } from "@mcpkit/client";
import type { ArgsOf, Registered, SchemaInput, Server, ToolConfig, ToolHandler } from "@mcpkit/server";
import { FLAT_RESOURCE_URI_KEY } from "./constants.js";

/** A tool's link to its view. */
export interface AppToolUi {
  /** The `ui://` resource registered with `registerAppResource`. */
  readonly resourceUri: string;
  /**
   * Who may call the tool: `"model"` (the agent sees it) and/or `"app"` (its view may call it through
   * the host). Default `["model", "app"]`; `["app"]` hides it from the model.
   */
  readonly visibility?: readonly ToolVisibility[] | undefined;
}

/** A tool's configuration plus its view. */
export type AppToolConfig<S extends SchemaInput | undefined = undefined> = ToolConfig<S> & {
  readonly ui: AppToolUi;
};

/**
 * Registers a tool whose results a host renders with a view: `_meta.ui = { resourceUri, visibility }`,
 * and the deprecated flat `_meta["ui/resourceUri"]` beside it for hosts that read only that.
 *
 * The handler is an ordinary tool handler: it should still return text content that means something
 * to a host without MCP Apps (the spec's text fallback); `structuredContent` is what views read.
 * @throws TypeError when `ui.resourceUri` does not start with `ui://`.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#resource-discovery
 */
export function registerAppTool<S extends SchemaInput | undefined = undefined>(
  server: Server,
  name: string,
  config: AppToolConfig<S>,
  handler: ToolHandler<ArgsOf<S>>,
): Registered {
  const { ui, _meta, ...rest } = config;
  if (!ui.resourceUri.startsWith("ui://"))
    throw new TypeError(`Tool ${name}: ui.resourceUri must be a ui:// URI, not ${ui.resourceUri}`);
  const visibility = [...(ui.visibility ?? ["model", "app"])];
  const meta = {
    ..._meta,
    ui: { resourceUri: ui.resourceUri, visibility },
    [FLAT_RESOURCE_URI_KEY]: ui.resourceUri,
  };
  return server.registerTool<S>(name, { ...rest, _meta: meta } as ToolConfig<S>, handler);
}
