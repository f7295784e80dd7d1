// The public entry points of mcpkit: every export of every published package (private ones left out), as
// the source file its "@mcpkit/source" condition names. TypeDoc documents these, and the API reports list them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../", import.meta.url));

/**
 * Every public entry point: `{ pkg, dir, subpath, source, types }` per TypeScript export of each published
 * package (`source`: the src file, `types`: the built ESM .d.ts), in package then export order.
 */
export function publicEntryPoints() {
  const entries = [];
  const packagesDir = join(repoRoot, "packages");
  for (const name of readdirSync(packagesDir).sort()) {
    const dir = join(packagesDir, name);
    const manifestPath = join(dir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === "object" ? target["@mcpkit/source"] : undefined;
      // A package still being written may name a source that is not there yet: left out until it is.
      if (typeof source !== "string" || !source.endsWith(".ts") || !existsSync(join(dir, source))) continue;
      const types = target.import?.types;
      entries.push({
        pkg: manifest.name,
        dir,
        subpath,
        source: join(dir, source),
        types: types && join(dir, types),
      });
    }
  }
  return entries;
}

/** The import specifier of an entry point: `@mcpkit/server`, `@mcpkit/server/node`. */
export function specifier(entry) {
  return entry.subpath === "." ? entry.pkg : `${entry.pkg}/${entry.subpath.slice(2)}`;
}
