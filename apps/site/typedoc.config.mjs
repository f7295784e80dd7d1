// The API reference: TypeDoc over the sources of every public entry point (read from the packages'
// exports), written as Markdown into api/ for VitePress (typedoc-plugin-markdown + typedoc-vitepress-theme).
import { publicEntryPoints } from "../../scripts/api-entry-points.mjs";

/** @type {Partial<import("typedoc").TypeDocOptions & import("typedoc-plugin-markdown").PluginOptions>} */
export default {
  entryPoints: publicEntryPoints().map((entry) => entry.source),
  entryPointStrategy: "resolve",
  tsconfig: "./tsconfig.api.json",
  plugin: ["typedoc-plugin-markdown", "typedoc-vitepress-theme", "./typedoc-module-names.mjs"],
  name: "mcpkit API reference",
  out: "./api",
  docsRoot: ".",
  sidebar: { autoConfiguration: false },
  readme: "none",
  skipErrorChecking: true,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  disableSources: true,
  hideBreadcrumbs: false,
  entryFileName: "index.md",
  // One page per entry point, each export an anchor on it: 26 pages to build instead of ~900.
  outputFileStrategy: "modules",
  // Explicit ids on the headings, so that every link TypeDoc writes lands (its slugs and VitePress's differ
  // for names such as `io.modelcontextprotocol/…` and for a type and a value of one name).
  useHTMLAnchors: true,
  logLevel: "Warn",
  validation: { notExported: false, invalidLink: false, notDocumented: false },
};
