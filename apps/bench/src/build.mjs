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

// What mcpkit's bench programs import: client, server and transports, and (scenario 10) @mcpkit/redis.
const BENCH_ROOTS = ["client", "server", "transport-stdio", "transport-http", "redis"];

/** The mcpkit packages whose dist is missing or older than their src or package.json. */
export function staleBuilds() {
  return mcpkitClosure(BENCH_ROOTS).filter((dir) => {
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
  const filters = stale.flatMap((d) => ["--filter", `./packages/${d}`]);
  // Scenario 10's proxy: the cluster demo's bundle (it bundles its sources, so no package build first).
  const demo = path.join(repo, "apps", "cluster-demo");
  const proxy = path.join(demo, "dist", "proxy.js");
  if (!existsSync(proxy) || newestMtime(path.join(demo, "src")) > statSync(proxy).mtimeMs) {
    filters.push("--filter", "./apps/cluster-demo");
  }
  if (filters.length === 0) return;
  process.stderr.write(
    `building ${filters.filter((_, i) => i % 2 === 1).join(", ")} (dist missing or stale)…\n`,
  );
  execFileSync("pnpm", [...filters, "run", "build"], { cwd: repo, stdio: ["ignore", 2, 2] });
}
