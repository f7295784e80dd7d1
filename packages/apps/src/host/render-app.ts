import type { CallToolResult, Implementation, Tool } from "@mcpkit/protocol";
import type { UiResourceCsp } from "../ui-meta.js";
import { type AppResource, loadAppResource } from "./app-resource.js";
import { permissionsAllow, restrictCsp } from "./csp.js";
import type { AppHostClient, AppHostHooks, HostContext, ViewInfo } from "./host-types.js";
import { createViewBridge, type ViewBridge } from "./view-bridge.js";

/** What {@link renderApp} takes. */
export interface RenderAppOptions {
  /** The client of the server whose tool this is. */
  readonly client: AppHostClient;
  /** The tool whose view to render: its name, or the tool as listed. */
  readonly tool: string | Tool;
  /** Where the frame goes (appended). */
  readonly container: HTMLElement;
  /** The sandbox proxy page (`sandboxProxyHtml`), served on another origin than this page's. */
  readonly sandboxUrl: string | URL;
  readonly hostInfo?: Implementation | undefined;
  /** Theme, display mode, container size, locale, platform, ...; `toolInfo` is filled in when absent. */
  readonly hostContext?: HostContext | undefined;
  readonly hooks?: AppHostHooks | undefined;
  /**
   * Narrows the view's declared CSP origins (return `false` to refuse one). It can only remove origins:
   * the policy never allows one the server did not declare. Default: all declared origins.
   */
  readonly approveOrigin?: ((kind: keyof UiResourceCsp, origin: string) => boolean) | undefined;
  /** How long the view has to send `ui/notifications/initialized` before it is torn down. Default 10000 ms. */
  readonly initTimeoutMs?: number | undefined;
  /** Tears the view down when aborted. */
  readonly signal?: AbortSignal | undefined;
}

/** A rendered view: its frame, its bridge, and the host's side of the conversation. */
export interface AppView {
  /** The outer frame (the sandbox proxy's). */
  readonly iframe: HTMLIFrameElement;
  readonly bridge: ViewBridge;
  readonly resource: AppResource;
  /** Resolves once the view initialized; rejects when it did not in time (the view is then gone). */
  readonly ready: Promise<ViewInfo>;
  sendToolInput(args: Record<string, unknown>): void;
  sendToolInputPartial(args: Record<string, unknown>): void;
  sendToolResult(result: CallToolResult): void;
  sendToolCancelled(reason?: string): void;
  setHostContext(changes: Partial<HostContext>): void;
  /**
   * Asks the view to wind down (`ui/resource-teardown`, answer awaited at most 2 s), then removes the
   * frame and listeners. Resolves `true` when the view answered in time.
   */
  teardown(reason?: string): Promise<boolean>;
}

const PROXY_READY = "ui/notifications/sandbox-proxy-ready";
const RESOURCE_READY = "ui/notifications/sandbox-resource-ready";

/**
 * Renders a tool's MCP App view in this page: reads the view (`loadAppResource`), frames the sandbox
 * proxy (`sandbox="allow-scripts allow-same-origin"`, on its own origin), hands it the HTML with the CSP
 * origins and permissions once it is ready, and bridges the view to `client` (`createViewBridge`).
 *
 * Guarantees: only messages whose source is this frame's window and whose origin is the proxy's reach
 * the bridge, everything else is ignored; the frame follows the view's size changes within
 * `containerDimensions` (fixed sizes stay fixed, `maxHeight`/`maxWidth` cap); a view that has not
 * initialized within `initTimeoutMs` is removed and `ready` rejects. It does NOT call the tool: the host
 * app does, and passes input and result with `sendToolInput` / `sendToolResult`.
 * @throws Error when `sandboxUrl` has this page's origin (the spec forbids it), or the view cannot be read.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#sandbox-proxy
 */
export async function renderApp(options: RenderAppOptions): Promise<AppView> {
  const sandboxUrl = new URL(options.sandboxUrl, location.href);
  const sandboxOrigin = sandboxUrl.origin;
  if (sandboxOrigin === location.origin)
    throw new Error(`The sandbox proxy must be on another origin than the host page (${location.origin})`);
  const tools = await options.client.listTools();
  const tool = typeof options.tool === "string" ? tools.find((t) => t.name === options.tool) : options.tool;
  if (tool === undefined) throw new Error(`No tool ${String(options.tool)} on this server`);
  const resource = await loadAppResource(options.client, tool, { signal: options.signal });
  const csp = options.approveOrigin
    ? restrictCsp(resource.ui.csp, options.approveOrigin)
    : (resource.ui.csp ?? {});
  const permissions = resource.ui.permissions ?? {};

  const iframe = document.createElement("iframe");
  // The proxy needs its own origin (allow-same-origin) to run; allow-forms only so the view may have forms.
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  const allow = permissionsAllow(permissions);
  if (allow !== "") iframe.setAttribute("allow", allow);
  iframe.setAttribute("title", tool.title ?? tool.name);
  const dims = options.hostContext?.containerDimensions ?? {};
  Object.assign(iframe.style, {
    display: "block",
    width: dims.width !== undefined ? `${dims.width}px` : "100%",
    height: `${dims.height ?? 0}px`,
    border: resource.ui.prefersBorder === true ? "1px solid #d0d0d0" : "0",
    borderRadius: resource.ui.prefersBorder === true ? "8px" : "0",
  });
  iframe.src = sandboxUrl.href;

  const hostContext: HostContext = { toolInfo: { tool }, ...options.hostContext };
  let settle: { resolve: (view: ViewInfo) => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<ViewInfo>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {});
  const bridge = createViewBridge({
    client: options.client,
    tools: () => tools,
    post: (message) => iframe.contentWindow?.postMessage(message, sandboxOrigin),
    hostInfo: options.hostInfo,
    hostContext,
    hooks: options.hooks,
    sandbox: { csp, permissions },
    onInitialized: (view) => {
      clearTimeout(timer);
      settle?.resolve(view);
    },
    onSize: (size) => {
      if (size.height !== undefined && dims.height === undefined)
        iframe.style.height = `${Math.min(size.height, dims.maxHeight ?? Number.POSITIVE_INFINITY)}px`;
      if (size.width !== undefined && dims.width === undefined && dims.maxWidth !== undefined)
        iframe.style.width = `${Math.min(size.width, dims.maxWidth)}px`;
    },
  });

  const onMessage = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow || event.origin !== sandboxOrigin) return;
    const method = (event.data as { method?: unknown } | null)?.method;
    if (method === PROXY_READY) {
      iframe.contentWindow?.postMessage(
        { jsonrpc: "2.0", method: RESOURCE_READY, params: { html: resource.html, csp, permissions } },
        sandboxOrigin,
      );
      return;
    }
    if (typeof method === "string" && method.startsWith("ui/notifications/sandbox-")) return;
    bridge.receive(event.data);
  };
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    clearTimeout(timer);
    window.removeEventListener("message", onMessage);
    options.signal?.removeEventListener("abort", onAbort);
    bridge.close();
    iframe.remove();
  };
  const teardown = async (reason?: string) => {
    if (removed) return false;
    const answered = await bridge.teardown(reason);
    remove();
    settle?.reject(new Error(`The view was torn down${reason === undefined ? "" : `: ${reason}`}`));
    return answered;
  };
  const onAbort = () => void teardown("aborted");
  const initTimeoutMs = options.initTimeoutMs ?? 10_000;
  const timer = setTimeout(() => {
    remove();
    const error = new Error(`The view of ${tool.name} did not initialize within ${initTimeoutMs} ms`);
    options.hooks?.onProtocolError?.(error);
    settle?.reject(error);
  }, initTimeoutMs);
  window.addEventListener("message", onMessage);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  options.container.append(iframe);

  return {
    iframe,
    bridge,
    resource,
    ready,
    sendToolInput: (args) => bridge.sendToolInput(args),
    sendToolInputPartial: (args) => bridge.sendToolInputPartial(args),
    sendToolResult: (result) => bridge.sendToolResult(result),
    sendToolCancelled: (reason) => bridge.sendToolCancelled(reason),
    setHostContext: (changes) => bridge.setHostContext(changes),
    teardown,
  };
}
