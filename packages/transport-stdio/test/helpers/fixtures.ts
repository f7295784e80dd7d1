import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = join(here, "..", "fixtures");
const outDir = mkdtempSync(join(tmpdir(), "mcpkit-stdio-fixtures-"));
const built = new Map<string, Promise<string>>();
process.once("exit", () => rmSync(outDir, { recursive: true, force: true }));

/**
 * Bundles a TypeScript fixture (which imports the real @mcpkit sources) into one plain ESM file, so
 * a child runs it with bare `node` in ~0.2 s instead of paying a TypeScript loader's start-up per spawn.
 * Fixtures ending in `.mjs` are plain Node and returned as they are.
 */
export function fixture(name: string): Promise<string> {
  if (name.endsWith(".mjs")) return Promise.resolve(join(fixturesDir, name));
  let path = built.get(name);
  if (!path) {
    const outfile = join(outDir, name.replace(/\.ts$/, ".mjs"));
    path = build({
      entryPoints: [join(fixturesDir, name)],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["@mcpkit/source"],
      outfile,
      logLevel: "error",
    }).then(() => outfile);
    built.set(name, path);
  }
  return path;
}
