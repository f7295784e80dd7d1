import { toBase64 } from "@mcpkit/protocol";
import type { Registered, ResourceConfig, Server } from "@mcpkit/server";
import { UI_MIME_TYPE } from "./constants.js";
import type { UiResourceMeta } from "./ui-meta.js";

/**
 * Where a view's HTML comes from: a string, bytes (UTF-8), or a function read on every `resources/read`
 * (a file, see `htmlFromFile` in `@mcpkit/apps/node`; a build's output; a template).
 */
export type HtmlSource = string | Uint8Array | (() => string | Uint8Array | Promise<string | Uint8Array>);

/** What {@link registerAppResource} takes besides the server and the URI. */
export interface AppResourceConfig extends Omit<ResourceConfig, "mimeType" | "_meta"> {
  /** The view: a complete HTML5 document. */
  readonly html: HtmlSource;
  /** Its `_meta.ui` (CSP origins, permissions, domain, border), on the listing and on the content. */
  readonly ui?: UiResourceMeta | undefined;
  /** `text` sends the HTML as a string, `blob` as base64. Default: `text` for strings, `blob` for bytes. */
  readonly encoding?: "text" | "blob" | undefined;
  /** Other `_meta` keys of the listing and the content, kept beside `ui`. */
  readonly _meta?: Record<string, unknown> | undefined;
}

const utf8 = new TextEncoder();

/**
 * Registers an MCP App view: a `ui://` resource of type `text/html;profile=mcp-app` whose listing and
 * whose content both carry `_meta.ui`. Link a tool to it with `registerAppTool`.
 *
 * The HTML is read on each `resources/read` when `html` is a function (its throw becomes the read's
 * error); it is not checked to be HTML.
 * @throws TypeError when `uri` does not start with `ui://`.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#ui-resource-format
 */
export function registerAppResource(server: Server, uri: string, config: AppResourceConfig): Registered {
  if (!uri.startsWith("ui://")) throw new TypeError(`An MCP App view needs a ui:// URI, not ${uri}`);
  const { html, ui, encoding, _meta, ...listing } = config;
  const meta = ui === undefined ? { ..._meta } : { ..._meta, ui };
  return server.registerResource(uri, { ...listing, mimeType: UI_MIME_TYPE, _meta: meta }, async () => {
    const body = typeof html === "function" ? await html() : html;
    const asBlob = encoding === "blob" || (encoding === undefined && typeof body !== "string");
    const content = asBlob
      ? { blob: toBase64(typeof body === "string" ? utf8.encode(body) : body) }
      : { text: typeof body === "string" ? body : new TextDecoder().decode(body) };
    return { contents: [{ uri, mimeType: UI_MIME_TYPE, ...content, _meta: meta }] };
  });
}
