// The runtimes of the table come with the command that uses them, not with `pnpm install`: the pinned list
// in install/package.json is installed with npm into a cache folder outside the workspace (one folder per
// version of that list), once; later runs reuse it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const manifestPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../install/package.json");

/**
 * The folder holding the installed runtimes (`<dir>/node_modules/bun`, …), installing them first when this
 * version of the list is not there yet. The cache root is `MCPKIT_RUNTIMES_CACHE`, else
 * `$XDG_CACHE_HOME/mcpkit/runtimes`, else `~/.cache/mcpkit/runtimes`.
 */
export function ensureRuntimes({ log = (line) => console.log(line) } = {}) {
  const manifest = readFileSync(manifestPath, "utf8");
  const root =
    process.env.MCPKIT_RUNTIMES_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "mcpkit", "runtimes");
  const dir = path.join(root, createHash("sha256").update(manifest).digest("hex").slice(0, 16));
  const done = path.join(dir, ".installed");
  if (existsSync(done)) return dir;
  const names = Object.entries(JSON.parse(manifest).dependencies).map(([k, v]) => `${k}@${v}`);
  log(`installing the runtimes into ${dir} (once): ${names.join(", ")}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), manifest);
  const started = Date.now();
  // The extra Node versions declare their own engines; the postinstalls (bun, deno, workerd) place binaries.
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--no-package-lock", "--engine-strict=false", "--loglevel=error"],
    { cwd: dir, stdio: ["ignore", "inherit", "inherit"], timeout: 600_000 },
  );
  writeFileSync(done, `${new Date().toISOString()}\n`);
  log(`runtimes installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return dir;
}
