import type { ToolResult } from "@mcpkit/client";
import type { CallToolResult, Implementation, Tool } from "@mcpkit/protocol";
import { UI_PROTOCOL_VERSIONS } from "../constants.js";
import { classify, RpcCode, RpcError, type RpcId, type RpcOut } from "../internal/json-rpc.js";
import type { UiResourceCsp, UiResourcePermissions } from "../ui-meta.js";
import { isAppCallable } from "./app-resource.js";
import type {
  AppHostClient,
  AppHostHooks,
  DisplayMode,
  HostContext,
  ViewInfo,
  ViewSize,
} from "./host-types.js";
import { requestHandlers } from "./view-requests.js";

/** What {@link createViewBridge} takes. */
export interface ViewBridgeOptions {
  /** The client of the server the view belongs to: its calls and reads go there, and only there. */
  readonly client: AppHostClient;
  /**
   * That server's tools as listed (or a function returning the current list): a view may call only
   * these, and only those whose `_meta.ui.visibility` includes `"app"`.
   */
  readonly tools: readonly Tool[] | (() => readonly Tool[]);
  /** Sends one message to the view (through the sandbox proxy on the web). */
  readonly post: (message: RpcOut) => void;
  readonly hostInfo?: Implementation | undefined;
  readonly hostContext?: HostContext | undefined;
  readonly hooks?: AppHostHooks | undefined;
  /** What the sandbox applied, told to the view in `hostCapabilities.sandbox`. */
  readonly sandbox?:
    | { readonly csp?: UiResourceCsp; readonly permissions?: UiResourcePermissions }
    | undefined;
  /** Called once, when the view sent `ui/notifications/initialized`. */
  readonly onInitialized?: ((view: ViewInfo) => void) | undefined;
  /** A size change the hooks let through: the renderer applies it to the frame. */
  readonly onSize?: ((size: ViewSize) => void) | undefined;
}

/**
 * The host side of one view's postMessage JSON-RPC connection, independent of the DOM: frames from the
 * view go to {@link ViewBridge.receive}, frames to it leave through `post`.
 *
 * Contract: every request from the view is answered exactly once (a result, or a JSON-RPC error naming
 * the cause), a frame that is not JSON-RPC is answered with -32600 and changes nothing else, and no
 * notification reaches the view before it sent `ui/notifications/initialized` (they wait in order).
 * It does NOT check where a frame came from: the renderer drops frames of other windows and origins.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#communication-protocol
 */
export interface ViewBridge {
  /** One frame from the view. Never throws. */
  receive(data: unknown): void;
  /** True once the view sent `ui/notifications/initialized`. */
  readonly initialized: boolean;
  /** What the view said of itself in `ui/initialize`. */
  readonly view: ViewInfo | undefined;
  /** The host context as the view last heard it (changes included). */
  readonly hostContext: HostContext;
  /** The last `ui/update-model-context` the view sent (each replaces the one before). */
  readonly modelContext: unknown;
  /** `ui/notifications/tool-input`: the call's complete arguments. */
  sendToolInput(args: Record<string, unknown>): void;
  /** `ui/notifications/tool-input-partial`: arguments so far, while the model streams them. */
  sendToolInputPartial(args: Record<string, unknown>): void;
  /** `ui/notifications/tool-result`: the call's result as the server sent it. */
  sendToolResult(result: CallToolResult): void;
  /** `ui/notifications/tool-cancelled`. */
  sendToolCancelled(reason?: string): void;
  /** Merges `changes` into the host context and sends `ui/notifications/host-context-changed` with them. */
  setHostContext(changes: Partial<HostContext>): void;
  /**
   * Sends `ui/resource-teardown` and waits for the view's answer, at most `timeoutMs` (default 2000),
   * then closes the bridge. Resolves `true` when the view answered, `false` when it did not in time or
   * never initialized (then nothing is sent).
   */
  teardown(reason?: string, timeoutMs?: number): Promise<boolean>;
  /** Stops: nothing more is sent, answers to requests still running are dropped. */
  close(): void;
}

/** A tool result as `@mcpkit/client` gives it, back in its wire shape (for `tool-result`). */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const wire: CallToolResult = { content: result.parts };
  if (result.structured !== undefined) wire.structuredContent = result.structured;
  if (result.isError) wire.isError = true;
  if (result.meta !== undefined) wire._meta = result.meta;
  return wire;
}

/** Creates the host side of a view's bridge. */
export function createViewBridge(options: ViewBridgeOptions): ViewBridge {
  return new HostBridge(options);
}

/** The state a request handler of `view-requests.ts` works on. */
export class HostBridge implements ViewBridge {
  view: ViewInfo | undefined;
  initialized = false;
  hostContext: HostContext;
  modelContext: unknown;
  readonly hooks: AppHostHooks;
  private closed = false;
  private readonly queue: RpcOut[] = [];
  private readonly pending = new Map<RpcId, (byView: boolean) => void>();
  private nextId = 1;

  constructor(readonly options: ViewBridgeOptions) {
    this.hostContext = { ...options.hostContext };
    this.hooks = options.hooks ?? {};
  }

  /** The tool a view asks to call, if this server lists it and lets apps call it. */
  appTool(name: string): Tool {
    const tools = typeof this.options.tools === "function" ? this.options.tools() : this.options.tools;
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined)
      throw new RpcError(RpcCode.InvalidParams, `Tool ${name} is not a tool of this server`);
    if (!isAppCallable(tool))
      throw new RpcError(
        RpcCode.Refused,
        `Tool ${name} is not callable by apps (its visibility has no "app")`,
      );
    return tool;
  }

  /** `ui/initialize`'s answer. */
  initializeResult(params: Record<string, unknown>): Record<string, unknown> {
    const asked = typeof params.protocolVersion === "string" ? params.protocolVersion : "";
    const protocolVersion = UI_PROTOCOL_VERSIONS.includes(asked)
      ? asked
      : (UI_PROTOCOL_VERSIONS[0] as string);
    const appCapabilities =
      typeof params.appCapabilities === "object" && params.appCapabilities !== null
        ? (params.appCapabilities as ViewInfo["appCapabilities"])
        : {};
    this.view = { appInfo: params.appInfo as Implementation | undefined, appCapabilities, protocolVersion };
    const hostCapabilities: Record<string, unknown> = {
      serverTools: {},
      serverResources: {},
      logging: {},
      updateModelContext: { text: {}, structuredContent: {} },
    };
    if (this.hooks.onOpenLink) hostCapabilities.openLinks = {};
    if (this.hooks.onMessage) hostCapabilities.message = { text: {} };
    if (this.options.sandbox) hostCapabilities.sandbox = this.options.sandbox;
    return {
      protocolVersion,
      hostInfo: this.options.hostInfo ?? { name: "mcpkit-app-host", version: "0.1.0" },
      hostCapabilities,
      hostContext: this.hostContext,
    };
  }

  /** The display mode the view ends up in after asking for `mode`. */
  async displayMode(mode: DisplayMode): Promise<DisplayMode> {
    const current = this.hostContext.displayMode ?? "inline";
    const viewModes = this.view?.appCapabilities.availableDisplayModes;
    const hostModes = this.hostContext.availableDisplayModes;
    if ((viewModes && !viewModes.includes(mode)) || (hostModes && !hostModes.includes(mode))) return current;
    const chosen = this.hooks.onRequestDisplayMode
      ? await this.hooks.onRequestDisplayMode({ mode }, current)
      : current;
    if (chosen !== current) this.setHostContext({ displayMode: chosen });
    return chosen;
  }

  receive(data: unknown): void {
    if (this.closed) return;
    const frame = classify(data);
    switch (frame.kind) {
      case "invalid":
        this.protocolError(new Error(`Malformed frame from the view: ${frame.reason}`));
        this.send({
          jsonrpc: "2.0",
          id: frame.id,
          error: { code: RpcCode.InvalidRequest, message: `Invalid request: ${frame.reason}` },
        });
        return;
      case "response":
        this.pending.get(frame.id)?.(true);
        this.pending.delete(frame.id);
        return;
      case "notification":
        this.notification(frame.method, frame.params as Record<string, unknown>);
        return;
      case "request":
        void this.request(frame.id, frame.method, frame.params as Record<string, unknown>);
    }
  }

  private async request(id: RpcId, method: string, params: Record<string, unknown>): Promise<void> {
    const handler = requestHandlers[method];
    try {
      if (handler === undefined) throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
      const result = await handler(this, params);
      this.send({ jsonrpc: "2.0", id, result });
    } catch (error) {
      const { code, message } = toRpcError(error);
      if (code !== RpcCode.MethodNotFound) this.protocolError(new Error(`${method} refused: ${message}`));
      this.send({ jsonrpc: "2.0", id, error: { code, message } });
    }
  }

  private notification(method: string, params: Record<string, unknown>): void {
    const hooks = this.hooks;
    switch (method) {
      case "ui/notifications/initialized":
        if (this.initialized) return;
        this.initialized = true;
        for (const message of this.queue.splice(0)) this.send(message);
        this.options.onInitialized?.(
          this.view ?? { appInfo: undefined, appCapabilities: {}, protocolVersion: "" },
        );
        return;
      case "ui/notifications/size-changed": {
        const size = sizeOf(params);
        if (size === undefined) {
          this.protocolError(new Error("size-changed with a width or height that is not a size"));
          return;
        }
        if (hooks.onSizeChange?.(size) !== false) this.options.onSize?.(size);
        return;
      }
      case "notifications/message":
        hooks.onLog?.(params as { level: string; data: unknown; logger?: string });
        return;
      case "ui/notifications/request-teardown":
        hooks.onRequestTeardown?.();
        return;
      default:
        hooks.onNotification?.(method, params);
    }
  }

  private protocolError(error: Error): void {
    this.hooks.onProtocolError?.(error);
  }

  private send(message: RpcOut): void {
    if (!this.closed) this.options.post(message);
  }

  private notify(method: string, params: unknown): void {
    const message: RpcOut = { jsonrpc: "2.0", method, params };
    if (this.initialized) this.send(message);
    else this.queue.push(message);
  }

  sendToolInput(args: Record<string, unknown>): void {
    this.notify("ui/notifications/tool-input", { arguments: args });
  }

  sendToolInputPartial(args: Record<string, unknown>): void {
    this.notify("ui/notifications/tool-input-partial", { arguments: args });
  }

  sendToolResult(result: CallToolResult): void {
    this.notify("ui/notifications/tool-result", result);
  }

  sendToolCancelled(reason?: string): void {
    this.notify("ui/notifications/tool-cancelled", reason === undefined ? {} : { reason });
  }

  setHostContext(changes: Partial<HostContext>): void {
    this.hostContext = { ...this.hostContext, ...changes };
    this.notify("ui/notifications/host-context-changed", changes);
  }

  async teardown(reason?: string, timeoutMs = 2_000): Promise<boolean> {
    let answered = false;
    if (this.initialized && !this.closed) {
      const id = `host-${this.nextId++}`;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.pending.set(id, (byView) => {
          clearTimeout(timer);
          answered = byView;
          resolve();
        });
        this.send({
          jsonrpc: "2.0",
          id,
          method: "ui/resource-teardown",
          params: reason === undefined ? {} : { reason },
        });
      });
    }
    this.close();
    return answered;
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    for (const resolve of this.pending.values()) resolve(false);
    this.pending.clear();
  }
}

function sizeOf(params: Record<string, unknown>): ViewSize | undefined {
  const ok = (v: unknown) => v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0);
  if (!ok(params.width) || !ok(params.height)) return undefined;
  return { width: params.width as number | undefined, height: params.height as number | undefined };
}

function toRpcError(error: unknown): { code: number; message: string } {
  if (error instanceof RpcError) return { code: error.code, message: error.message };
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // A server's JSON-RPC error (McpError) keeps its code; a hook's throw is a refusal.
  return { code: typeof code === "number" && Number.isInteger(code) ? code : RpcCode.Refused, message };
}
