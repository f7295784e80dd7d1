// Installed size of each implementation's runtime closure (client ∪ server): the official packages
// installed from the registry, and ours packed with `pnpm pack` (as they would be published), each set
// installed with `npm install --omit=dev` into a scratch folder. Results are cached per version (or, for
// mcpkit, per content of the packed files) in the OS temp folder.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { appDir } from "./procs.mjs";

const run = promisify(execFile);
const cacheDir = path.join(tmpdir(), "mcpkit-bench-sizes");
const repo = path.resolve(appDir, "../..");

/** What each implementation needs at run time, client and server together. */
function officialSpecs(impl) {
  const deps = JSON.parse(readFileSync(path.join(appDir, "package.json"), "utf8")).dependencies;
  const v = (name) => `${name}@${deps[name]}`;
  if (impl === "sdk-v1") return [v("@modelcontextprotocol/sdk")];
  if (impl === "sdk-v2")
    return [
      v("@modelcontextprotocol/client"),
      v("@modelcontextprotocol/server"),
      v("@modelcontextprotocol/node"),
    ];
  return [];
}

const MCPKIT_ROOTS = ["client", "server", "transport-stdio", "transport-http"];

/** The workspace packages (folder names) mcpkit's client and server need, following `workspace:` deps. */
export function mcpkitClosure(roots = MCPKIT_ROOTS) {
  const byName = new Map();
  for (const dir of readdirSync(path.join(repo, "packages"))) {
    const file = path.join(repo, "packages", dir, "package.json");
    if (existsSync(file)) byName.set(JSON.parse(readFileSync(file, "utf8")).name, dir);
  }
  const seen = new Set();
  const visit = (dir) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(repo, "packages", dir, "package.json"), "utf8"));
    for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
      if (String(range).startsWith("workspace:") && byName.has(name)) visit(byName.get(name));
    }
  };
  for (const r of roots) visit(r);
  return [...seen].sort();
}

function hashTree(hash, dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(hash, full);
    else if (entry.isFile()) hash.update(entry.name).update(readFileSync(full));
  }
}

/**
 * Apparent size in bytes of every file under `dir` (a node_modules folder), the number of installed
 * packages, and the largest packages (nested node_modules counted apart).
 */
export function treeSize(dir) {
  let bytes = 0;
  let packages = 0;
  const perPackage = new Map();
  const walk = (d, inModules, owner) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        const isPackage = inModules && !entry.name.startsWith("@") && !entry.name.startsWith(".");
        let next = owner;
        if (isPackage && existsSync(path.join(full, "package.json"))) {
          packages++;
          next = path.relative(dir, full);
        }
        walk(full, entry.name === "node_modules" || (inModules && entry.name.startsWith("@")), next);
      } else {
        const size = lstatSync(full).size;
        bytes += size;
        if (owner) perPackage.set(owner, (perPackage.get(owner) ?? 0) + size);
      }
    }
  };
  if (existsSync(dir)) walk(dir, true, undefined);
  const largest = [...perPackage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, size]) => ({ name, bytes: size }));
  return { bytes, packages, largest };
}

async function npmInstall(specs) {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-bench-install-"));
  try {
    writeFileSync(path.join(dir, "package.json"), '{ "name": "bench-size-probe", "private": true }\n');
    await run(
      "npm",
      [
        "install",
        "--omit=dev",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--ignore-scripts",
        "--loglevel=error",
        ...specs,
      ],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
    );
    return treeSize(path.join(dir, "node_modules"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function sizeOf(impl, log) {
  if (impl === "raw") return { bytes: 0, packages: 0, what: "node built-ins only" };
  const hash = createHash("sha256");
  let specs;
  let dirs = [];
  if (impl === "mcpkit") {
    dirs = mcpkitClosure();
    for (const d of dirs) {
      const pkg = path.join(repo, "packages", d);
      hash.update(d).update(readFileSync(path.join(pkg, "package.json")));
      if (!existsSync(path.join(pkg, "dist"))) throw new Error(`packages/${d} has no dist (build it first)`);
      hashTree(hash, path.join(pkg, "dist"));
    }
  } else {
    specs = officialSpecs(impl);
    hash.update(specs.join(" "));
  }
  const key = `${impl}-v2-${hash.digest("hex").slice(0, 16)}`;
  const cached = path.join(cacheDir, `${key}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8"));
  log(`  installing ${impl}'s runtime closure into a scratch folder…`);
  let result;
  if (impl === "mcpkit") {
    const packDir = mkdtempSync(path.join(tmpdir(), "mcpkit-bench-pack-"));
    try {
      for (const d of dirs) {
        await run("pnpm", ["pack", "--pack-destination", packDir], { cwd: path.join(repo, "packages", d) });
      }
      const tarballs = readdirSync(packDir)
        .filter((f) => f.endsWith(".tgz"))
        .map((f) => path.join(packDir, f));
      result = { ...(await npmInstall(tarballs)), what: dirs.map((d) => `@mcpkit/${d}`).join(", ") };
    } finally {
      rmSync(packDir, { recursive: true, force: true });
    }
  } else {
    result = { ...(await npmInstall(specs)), what: specs.join(", ") };
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(result));
  return result;
}

/** Sizes of every implementation's closure: [{ impl, bytes, packages, what } | { impl, error }]. */
export async function measureSizes(impls, log) {
  const out = [];
  for (const impl of impls) {
    try {
      out.push({ impl, ...(await sizeOf(impl, log)) });
    } catch (error) {
      out.push({ impl, error: String(error?.stderr || error?.message || error).slice(0, 600) });
    }
  }
  return out;
}
