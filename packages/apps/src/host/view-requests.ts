import type { CallToolResult, ContentBlock } from "@mcpkit/protocol";
import { RpcCode, RpcError } from "../internal/json-rpc.js";
import type { DisplayMode } from "./host-types.js";
import type { HostBridge } from "./view-bridge.js";
import { toCallToolResult } from "./view-bridge.js";

type Params = Record<string, unknown>;
type Handler = (bridge: HostBridge, params: Params) => Promise<unknown>;

const DISPLAY_MODES: readonly string[] = ["inline", "fullscreen", "pip"];
// Schemes a view may ask the host to open; javascript:, data:, file: and the like are refused before any hook.
const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

function str(params: Params, key: string): string {
  const value = params[key];
  if (typeof value !== "string" || value === "")
    throw new RpcError(RpcCode.InvalidParams, `params.${key} must be a string`);
  return value;
}

function record(value: unknown, what: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new RpcError(RpcCode.InvalidParams, `${what} must be an object`);
  return value as Record<string, unknown>;
}

function content(value: unknown, what: string): ContentBlock[] {
  if (!Array.isArray(value))
    throw new RpcError(RpcCode.InvalidParams, `${what} must be an array of content blocks`);
  return value as ContentBlock[];
}

function refused(what: string): never {
  throw new RpcError(RpcCode.Refused, `${what} is not supported by this host`);
}

/**
 * The requests a view may send, one row each: MCP's own (`tools/call`, `resources/read`, `ping`), passed
 * to this server only, and the extension's `ui/*` requests, answered by the host through its hooks.
 * A method not in the table is answered with -32601.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#mcp-apps-specific-messages
 */
export const requestHandlers: Readonly<Record<string, Handler>> = {
  "ui/initialize": async (bridge, params) => bridge.initializeResult(params),

  ping: async () => ({}),

  "tools/call": async (bridge, params) => {
    const name = str(params, "name");
    const args = record(params.arguments, "params.arguments") ?? {};
    bridge.appTool(name);
    const next = async (): Promise<CallToolResult> =>
      toCallToolResult(await bridge.options.client.callTool(name, args));
    return bridge.hooks.onToolCall ? bridge.hooks.onToolCall({ name, arguments: args }, next) : next();
  },

  "resources/read": async (bridge, params) => {
    const uri = str(params, "uri");
    const next = () => bridge.options.client.readResource(uri);
    return bridge.hooks.onReadResource ? bridge.hooks.onReadResource({ uri }, next) : next();
  },

  "ui/open-link": async (bridge, params) => {
    const url = str(params, "url");
    let scheme: string;
    try {
      scheme = new URL(url).protocol;
    } catch {
      throw new RpcError(RpcCode.InvalidParams, `Invalid URL: ${url}`);
    }
    if (!LINK_SCHEMES.has(scheme)) throw new RpcError(RpcCode.Refused, `Links with ${scheme} are refused`);
    if (!bridge.hooks.onOpenLink) refused("Opening links");
    await bridge.hooks.onOpenLink({ url });
    return {};
  },

  "ui/message": async (bridge, params) => {
    const role = str(params, "role");
    // The spec's example sends one block, its schema a list: take both.
    const single = Array.isArray(params.content) ? undefined : record(params.content, "params.content");
    const blocks =
      single === undefined ? content(params.content, "params.content") : [single as unknown as ContentBlock];
    if (!bridge.hooks.onMessage) refused("ui/message");
    await bridge.hooks.onMessage({ role, content: blocks });
    return {};
  },

  "ui/request-display-mode": async (bridge, params) => {
    const mode = str(params, "mode");
    if (!DISPLAY_MODES.includes(mode))
      throw new RpcError(RpcCode.InvalidParams, `Unknown display mode ${mode}`);
    return { mode: await bridge.displayMode(mode as DisplayMode) };
  },

  "ui/update-model-context": async (bridge, params) => {
    const update: { content?: ContentBlock[]; structuredContent?: Record<string, unknown> } = {};
    if (params.content !== undefined) update.content = content(params.content, "params.content");
    const structured = record(params.structuredContent, "params.structuredContent");
    if (structured !== undefined) update.structuredContent = structured;
    await bridge.hooks.onUpdateModelContext?.(update);
    bridge.modelContext = update;
    return {};
  },
};
