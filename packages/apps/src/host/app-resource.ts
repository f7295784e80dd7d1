import { toolUiResourceUri, toolVisibility } from "@mcpkit/client";
import { fromBase64, type ReadResourceResult, type Tool } from "@mcpkit/protocol";
import { UI_MIME_TYPE } from "../constants.js";
import type { UiResourceMeta } from "../ui-meta.js";
import type { AppHostClient } from "./host-types.js";

/** A view ready to render: the tool it belongs to, its URI, its HTML and its `_meta.ui`. */
export interface AppResource {
  readonly tool: Tool;
  readonly uri: string;
  readonly html: string;
  /** `_meta.ui` of the content, else of the listing (`resources/list`), else empty. */
  readonly ui: UiResourceMeta;
}

/**
 * Finds a tool's view and reads it: the tool from `tools/list` (by name, or as given), its `ui://` URI,
 * then `resources/read`; a `blob` is decoded as UTF-8.
 *
 * `_meta.ui` comes from the content, falling back to the resource's listing when the content has none
 * (the spec puts it on both; some servers only list it).
 * @throws Error when the tool is not listed, has no view, or the read returned no `text/html;profile=mcp-app` content.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#resource-discovery
 */
export async function loadAppResource(
  client: AppHostClient,
  tool: string | Tool,
  options: { readonly signal?: AbortSignal | undefined } = {},
): Promise<AppResource> {
  const listed = typeof tool === "string" ? (await client.listTools()).find((t) => t.name === tool) : tool;
  if (listed === undefined) throw new Error(`No tool ${String(tool)} on this server`);
  const uri = toolUiResourceUri(listed);
  if (uri === undefined) throw new Error(`Tool ${listed.name} has no ui:// view (_meta.ui.resourceUri)`);
  const read: ReadResourceResult = await client.readResource(uri, { signal: options.signal });
  const content = read.contents.find((c) => c.uri === uri && isUiMime(c.mimeType)) ?? read.contents[0];
  if (content === undefined || !isUiMime(content.mimeType))
    throw new Error(`Resource ${uri} holds no ${UI_MIME_TYPE} content`);
  const html = "text" in content ? content.text : new TextDecoder().decode(fromBase64(content.blob));
  const ui = uiOf(content._meta) ?? uiOf(await listedMeta(client, uri)) ?? {};
  return { tool: listed, uri, html, ui };
}

/** Whether a tool may be called by a view (`"app"` in its visibility). */
export function isAppCallable(tool: Tool): boolean {
  return toolVisibility(tool).includes("app");
}

function isUiMime(mimeType: string | undefined): boolean {
  return mimeType?.replace(/\s+/g, "").toLowerCase() === UI_MIME_TYPE;
}

function uiOf(meta: unknown): UiResourceMeta | undefined {
  const ui = typeof meta === "object" && meta !== null ? (meta as { ui?: unknown }).ui : undefined;
  return typeof ui === "object" && ui !== null ? (ui as UiResourceMeta) : undefined;
}

async function listedMeta(client: AppHostClient, uri: string): Promise<unknown> {
  if (client.listResources === undefined) return undefined;
  try {
    return (await client.listResources()).find((r) => r.uri === uri)?._meta;
  } catch {
    // A server may omit UI-only resources from resources/list (the spec allows it), or list none.
    return undefined;
  }
}
