// mcpkit's programs run on the packages' built dist (no TypeScript loader in a measured process), so the
// packages are built first when a dist is missing or older than its sources.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { appDir } from "./procs.mjs";
import { mcpkitClosure } from "./sizes.mjs";

const repo = path.resolve(appDir, "../..");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.includes(".test.")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** The mcpkit packages whose dist is missing or older than their src or package.json. */
export function staleBuilds() {
  return mcpkitClosure().filter((dir) => {
    const pkg = path.join(repo, "packages", dir);
    const dist = path.join(pkg, "dist", "index.js");
    if (!existsSync(dist)) return true;
    const built = statSync(dist).mtimeMs;
    return (
      newestMtime(path.join(pkg, "src")) > built || statSync(path.join(pkg, "package.json")).mtimeMs > built
    );
  });
}

/** Builds (tsup, through pnpm) every mcpkit package the bench needs whose dist is missing or stale. */
export function ensureBuilt() {
  const stale = staleBuilds();
  if (stale.length === 0) return;
  process.stderr.write(`building ${stale.map((d) => `@mcpkit/${d}`).join(", ")} (dist missing or stale)…\n`);
  const filters = stale.flatMap((d) => ["--filter", `./packages/${d}`]);
  execFileSync("pnpm", [...filters, "run", "build"], { cwd: repo, stdio: ["ignore", 2, 2] });
}
