import type { ClientCapabilities, ExtensionCapabilities } from "@mcpkit/protocol";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants.js";

/** What a client declared under `capabilities.extensions["io.modelcontextprotocol/ui"]`. */
export interface AppSupport {
  /** The view types it renders (`text/html;profile=mcp-app`); empty when it listed none. */
  readonly mimeTypes: readonly string[];
}

/** Anything that carries the caller's capabilities: a handler's context (`ctx.client`) or the capabilities. */
export type CapabilitySource =
  | { readonly client: { readonly capabilities: ClientCapabilities } }
  | { readonly capabilities: ClientCapabilities }
  | ClientCapabilities;

function capabilitiesOf(source: CapabilitySource): ClientCapabilities {
  if ("client" in source && typeof source.client === "object" && source.client !== null)
    return (source.client as { capabilities: ClientCapabilities }).capabilities;
  if ("capabilities" in source && typeof source.capabilities === "object" && source.capabilities !== null)
    return source.capabilities as ClientCapabilities;
  return source as ClientCapabilities;
}

/**
 * The caller's MCP Apps support, or `undefined` when it declared none. Works in both eras: a legacy
 * session's capabilities come from `initialize`, a modern request's from its `_meta`; both reach the
 * handler's context as `ctx.client.capabilities`.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#client-host-capabilities
 */
export function appSupportOf(source: CapabilitySource): AppSupport | undefined {
  const extensions = (capabilitiesOf(source) as { extensions?: unknown }).extensions;
  if (typeof extensions !== "object" || extensions === null) return undefined;
  const entry = (extensions as Record<string, unknown>)[UI_EXTENSION_ID];
  if (typeof entry !== "object" || entry === null) return undefined;
  const listed = (entry as { mimeTypes?: unknown }).mimeTypes;
  const mimeTypes = Array.isArray(listed) ? listed.filter((m): m is string => typeof m === "string") : [];
  return { mimeTypes };
}

/**
 * Whether the caller renders MCP App views of `mimeType` (default `text/html;profile=mcp-app`): it
 * declared the extension and listed that type. A handler can answer with text alone when it does not.
 */
export function rendersApps(source: CapabilitySource, mimeType: string = UI_MIME_TYPE): boolean {
  return appSupportOf(source)?.mimeTypes.includes(mimeType) ?? false;
}

/**
 * The `capabilities.extensions` entry a host declares to render views; pass it to `createClient({
 * capabilities: { extensions: appExtension() } })`.
 */
export function appExtension(mimeTypes: readonly string[] = [UI_MIME_TYPE]): ExtensionCapabilities {
  return { [UI_EXTENSION_ID]: { mimeTypes: [...mimeTypes] } };
}
