// @mcpkit/apps/host: render MCP App views in a web page (browser-safe, no node:* import). Explicit
// named exports only: a test snapshots this list.

export { appExtension } from "./client-support.js";
export { UI_EXTENSION_ID, UI_MIME_TYPE, UI_PROTOCOL_VERSIONS } from "./constants.js";
export { type AppResource, isAppCallable, loadAppResource } from "./host/app-resource.js";
export { permissionsAllow, restrictCsp, viewCsp } from "./host/csp.js";
export type {
  AppHostClient,
  AppHostHooks,
  DisplayMode,
  HostContext,
  ViewInfo,
  ViewSize,
} from "./host/host-types.js";
export { type AppView, type RenderAppOptions, renderApp } from "./host/render-app.js";
export { type SandboxProxyOptions, sandboxProxyHeaders, sandboxProxyHtml } from "./host/sandbox-proxy.js";
export {
  createViewBridge,
  toCallToolResult,
  type ViewBridge,
  type ViewBridgeOptions,
} from "./host/view-bridge.js";
export type { UiResourceCsp, UiResourceMeta, UiResourcePermissions } from "./ui-meta.js";
