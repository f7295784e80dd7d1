/**
 * The MCP Apps extension's identifier: its key in `capabilities.extensions`.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#extension-identifier
 */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/** The MIME type of an MCP App view (an HTML5 document); the only one the stable spec defines. */
export const UI_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * The view protocol versions this package speaks, newest first: the stable spec's, and the draft's that
 * ext-apps views still offer.
 */
export const UI_PROTOCOL_VERSIONS: readonly string[] = ["2026-01-26", "2025-11-21"];

/**
 * The deprecated flat `_meta` key of a tool's view (`_meta["ui/resourceUri"]`). Servers here write it
 * beside `_meta.ui.resourceUri`, as ext-apps 1.x and 2.x both do, so hosts of either era find the view.
 */
export const FLAT_RESOURCE_URI_KEY = "ui/resourceUri";
