import type { ToolCallOptions, ToolResult } from "@mcpkit/client";
import type {
  CallToolResult,
  ContentBlock,
  Implementation,
  ReadResourceResult,
  Resource,
  Tool,
} from "@mcpkit/protocol";

/**
 * The client an app host talks to the server through: the subset of `@mcpkit/client`'s `Client` it
 * uses (structural: any client with these methods fits).
 */
export interface AppHostClient {
  listTools(): Promise<Tool[]>;
  listResources?(): Promise<Resource[]>;
  callTool(name: string, args?: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolResult>;
  readResource(uri: string, options?: { signal?: AbortSignal | undefined }): Promise<ReadResourceResult>;
}

/** How a view is shown. */
export type DisplayMode = "inline" | "fullscreen" | "pip";

/**
 * What the host tells the view about itself in `ui/initialize` and `host-context-changed`. Every field
 * is optional; unknown fields pass through.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#host-context-in-mcpuiinitializeresult
 */
export interface HostContext {
  readonly [key: string]: unknown;
  readonly toolInfo?: { readonly id?: string | number; readonly tool: Tool } | undefined;
  readonly theme?: "light" | "dark" | undefined;
  readonly styles?:
    | { readonly variables?: Record<string, string | undefined>; readonly css?: { readonly fonts?: string } }
    | undefined;
  readonly displayMode?: DisplayMode | undefined;
  readonly availableDisplayModes?: readonly DisplayMode[] | undefined;
  /** Fixed `height`/`width`, or flexible up to `maxHeight`/`maxWidth` (the view's size-changed then rules). */
  readonly containerDimensions?:
    | {
        readonly height?: number;
        readonly maxHeight?: number;
        readonly width?: number;
        readonly maxWidth?: number;
      }
    | undefined;
  readonly locale?: string | undefined;
  readonly timeZone?: string | undefined;
  readonly userAgent?: string | undefined;
  readonly platform?: "web" | "desktop" | "mobile" | undefined;
  readonly deviceCapabilities?: { readonly touch?: boolean; readonly hover?: boolean } | undefined;
  readonly safeAreaInsets?:
    | { readonly top: number; readonly right: number; readonly bottom: number; readonly left: number }
    | undefined;
}

/** A view's size report (`ui/notifications/size-changed`), in CSS pixels. */
export interface ViewSize {
  readonly width?: number | undefined;
  readonly height?: number | undefined;
}

/** What the view sent in `ui/initialize`. */
export interface ViewInfo {
  readonly appInfo: Implementation | undefined;
  readonly appCapabilities: {
    readonly availableDisplayModes?: readonly DisplayMode[];
    readonly [key: string]: unknown;
  };
  readonly protocolVersion: string;
}

/**
 * The host app's say over what a view asks for. Each hook is optional; a hook that throws refuses the
 * request, and the view gets a JSON-RPC error (-32000) with the thrown message.
 *
 * Without `onOpenLink` or `onMessage` the host does not offer them (`hostCapabilities` says so) and
 * refuses them. Visibility and server checks run before any hook: a hook never sees a call to a
 * model-only tool or to a tool this server does not list.
 */
export interface AppHostHooks {
  /** A `tools/call` of an app-callable tool of this server; `next()` makes the call. Default: `next()`. */
  onToolCall?(
    call: { readonly name: string; readonly arguments: Record<string, unknown> },
    next: () => Promise<CallToolResult>,
  ): CallToolResult | Promise<CallToolResult>;
  /** A `resources/read`; `next()` reads from this server. Default: `next()`. */
  onReadResource?(
    params: { readonly uri: string },
    next: () => Promise<ReadResourceResult>,
  ): ReadResourceResult | Promise<ReadResourceResult>;
  /** `ui/open-link` with an `http:`/`https:`/`mailto:` URL (others are refused first): open it, or throw. */
  onOpenLink?(params: { readonly url: string }): void | Promise<void>;
  /** `ui/message`: a message for the conversation (route it into the chat, or throw). */
  onMessage?(params: {
    readonly role: string;
    readonly content: readonly ContentBlock[];
  }): void | Promise<void>;
  /** `ui/request-display-mode`: the mode to switch to (among the view's and the host's), default the current one. */
  onRequestDisplayMode?(
    params: { readonly mode: DisplayMode },
    current: DisplayMode,
  ): DisplayMode | Promise<DisplayMode>;
  /** `ui/update-model-context`: context for the model's next turns (each replaces the last). */
  onUpdateModelContext?(params: {
    readonly content?: readonly ContentBlock[];
    readonly structuredContent?: Record<string, unknown>;
  }): void | Promise<void>;
  /** `ui/notifications/size-changed`: return `false` to leave the frame as it is. */
  onSizeChange?(size: ViewSize): boolean | undefined;
  /** `notifications/message` from the view (its logs). */
  onLog?(params: { readonly level: string; readonly data: unknown; readonly logger?: string }): void;
  /** `ui/notifications/request-teardown`: the view asks to be closed. */
  onRequestTeardown?(): void;
  /** Any other notification from the view. */
  onNotification?(method: string, params: unknown): void;
  /** Something the view sent was refused or malformed (already answered where it had an id). */
  onProtocolError?(error: Error): void;
}
