import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { build } from "esbuild";

const outDir = mkdtempSync(join(tmpdir(), "mcpkit-fixtures-"));
const built = new Map<string, Promise<string>>();
process.once("exit", () => rmSync(outDir, { recursive: true, force: true }));

/**
 * Bundles a TypeScript fixture (a server or client script that imports the real @mcpkit sources) into
 * one plain ESM file, so a child process runs it with bare `node` in a fraction of a second instead of
 * paying a TypeScript loader's start-up per spawn. Each entry is built once per test process.
 */
export function bundleFixture(entry: string): Promise<string> {
  if (entry.endsWith(".mjs") || entry.endsWith(".js")) return Promise.resolve(entry);
  let path = built.get(entry);
  if (!path) {
    const outfile = join(outDir, `${built.size}-${basename(entry).replace(/\.ts$/, ".mjs")}`);
    path = build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["@mcpkit/source"],
      outfile,
      logLevel: "error",
      // Bundled CommonJS dependencies (ajv) call require(); give the ESM bundle one.
      banner: {
        js: "import { createRequire as __mcpkitRequire } from 'node:module'; const require = __mcpkitRequire(import.meta.url);",
      },
    }).then(() => outfile);
    built.set(entry, path);
  }
  return path;
}
