// A TypeDoc plugin: names each module of the reference by its import specifier (`@mcpkit/server/node`)
// instead of its source path (`server/src/node`).
import { basename, dirname, relative } from "node:path";
import { Converter } from "typedoc";
import { publicEntryPoints, repoRoot, specifier } from "../../scripts/api-entry-points.mjs";

/** Registers the renaming with TypeDoc's converter. */
export function load(app) {
  const names = new Map();
  for (const entry of publicEntryPoints()) {
    const path = relative(`${repoRoot}packages`, entry.source).replace(/\.ts$/, "");
    names.set(basename(path) === "index" ? dirname(path) : path, specifier(entry));
  }
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.children ?? []) {
      const name = names.get(module.name);
      if (name) module.name = name;
    }
  });
}
