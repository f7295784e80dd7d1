// The API reference: TypeDoc over the sources of every public entry point (read from the packages'
// exports), written as Markdown into api/ for VitePress (typedoc-plugin-markdown + typedoc-vitepress-theme).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { publicEntryPoints } from "../../scripts/api-entry-points.mjs";

// TypeDoc documents a declaration on the page of the first entry point that exports it: list the lower
// layers first (a package after everything it depends on), so that `createServer` lives on @mcpkit/server's
// page and `mcpkit`, which re-exports it, links there.
const entries = publicEntryPoints();
const depsOf = (dir) => {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return Object.keys(manifest.dependencies ?? {});
};
const byName = new Map(entries.map((entry) => [entry.pkg, entry.dir]));
const depths = new Map();
const depth = (name, path = []) => {
  if (!byName.has(name) || path.includes(name)) return 0;
  if (!depths.has(name)) {
    const below = depsOf(byName.get(name)).map((dep) => depth(dep, [...path, name]));
    depths.set(name, 1 + Math.max(0, ...below));
  }
  return depths.get(name);
};
const layered = entries
  .map((entry, index) => ({ entry, index, depth: depth(entry.pkg) }))
  .sort((a, b) => a.depth - b.depth || a.index - b.index)
  .map(({ entry }) => entry);

/** @type {Partial<import("typedoc").TypeDocOptions & import("typedoc-plugin-markdown").PluginOptions>} */
export default {
  entryPoints: layered.map((entry) => entry.source),
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
