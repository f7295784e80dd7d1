// The public surface of @mcpkit/apps, runtime-neutral: the server side of MCP Apps. The host side is
// `@mcpkit/apps/host`; reading a view from a file is `@mcpkit/apps/node`. Explicit named exports only:
// a test snapshots this list.

export { type AppToolConfig, type AppToolUi, registerAppTool } from "./app-tool.js";
export {
  type AppSupport,
  appExtension,
  appSupportOf,
  type CapabilitySource,
  rendersApps,
} from "./client-support.js";
export { FLAT_RESOURCE_URI_KEY, UI_EXTENSION_ID, UI_MIME_TYPE, UI_PROTOCOL_VERSIONS } from "./constants.js";
export { type SingleFileHtmlOptions, singleFileHtml } from "./single-file.js";
export type { UiResourceCsp, UiResourceMeta, UiResourcePermissions } from "./ui-meta.js";
export { type AppResourceConfig, type HtmlSource, registerAppResource } from "./ui-resource.js";
