// Builds the page once per test process into a temporary folder (tests run before `pnpm build`), with the
// package's own vite.config.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

let built: Promise<string> | undefined;

/** The folder of a fresh build of the page. */
export function buildPage(): Promise<string> {
  built ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), "mcpkit-inspector-page-"));
    process.once("exit", () => rmSync(outDir, { recursive: true, force: true }));
    const { build } = await import("vite");
    await build({
      configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)),
      logLevel: "error",
      build: { outDir, emptyOutDir: true },
    });
    return outDir;
  })();
  return built;
}
