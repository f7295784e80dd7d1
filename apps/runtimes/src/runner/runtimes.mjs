// The runtimes of the table and how to start a script on each: the binaries come from the pinned list that
// install.mjs puts in a cache folder (the machine's own Node for Node 20), found without any npm bin shim in
// between.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const repoRoot = path.resolve(appDir, "../..");

function isElf(file) {
  if (!existsSync(file)) return false;
  const fd = openSync(file, "r");
  const head = Buffer.alloc(4);
  readSync(fd, head, 0, 4, 0);
  closeSync(fd);
  return head.toString("latin1") === "\x7fELF";
}

/** The directory of an installed package, as `from` resolves it. */
function packageDir(name, from) {
  return path.dirname(from.resolve(`${name}/package.json`));
}

/** A binary a package's postinstall put in place, else the one inside its platform package. */
function nativeBinary(from, pkg, inPackage, platformPkg, inPlatform) {
  const dir = packageDir(pkg, from);
  const placed = path.join(dir, inPackage);
  if (isElf(placed)) return placed;
  const platformRequire = createRequire(path.join(dir, "package.json"));
  return path.join(packageDir(platformPkg, platformRequire), inPlatform);
}

/**
 * Every runtime: `kind` (node, bun, deno, workerd, browser), its binary, and `command(script, args)` for a
 * script runtime (the argv that runs a bundled ESM file). `installDir` is where {@link ensureRuntimes}
 * installed the pinned runtimes.
 */
export function runtimes(installDir) {
  const from = createRequire(path.join(installDir, "package.json"));
  const nodeBin = (alias) => path.join(packageDir(alias, from), "bin", "node");
  const node = (id, label, bin) => ({
    id,
    label,
    kind: "node",
    bin,
    command: (script, args = []) => [bin, script, ...args],
  });
  const bun = nativeBinary(from, "bun", "bin/bun.exe", "@oven/bun-linux-x64", "bin/bun");
  const deno = nativeBinary(from, "deno", "deno", "@deno/linux-x64-glibc", "deno");
  const workerd = nativeBinary(from, "workerd", "bin/workerd", "@cloudflare/workerd-linux-64", "bin/workerd");
  return [
    node("node20", "Node 20", process.execPath),
    node("node22", "Node 22", nodeBin("node22")),
    node("node24", "Node 24", nodeBin("node24")),
    node("node26", "Node 26", nodeBin("node26")),
    {
      id: "bun",
      label: "Bun",
      kind: "bun",
      bin: bun,
      command: (script, args = []) => [bun, script, ...args],
    },
    {
      id: "deno",
      label: "Deno",
      kind: "deno",
      bin: deno,
      // No config, no lockfile: the bundle needs neither, and the repository's package.json is not Deno's.
      command: (script, args = []) => [
        deno,
        "run",
        "-A",
        "--no-config",
        "--no-lock",
        "--quiet",
        script,
        ...args,
      ],
    },
    { id: "workerd", label: "workerd", kind: "workerd", bin: workerd },
    { id: "browser", label: "Chromium", kind: "browser", bin: "/usr/bin/chromium" },
  ];
}

/** `rt`'s version as it reports it (one line), or `?`. */
export function versionOf(rt) {
  const run = spawnSync(rt.bin, ["--version"], { encoding: "utf8", timeout: 10_000 });
  const line = `${run.stdout ?? ""}`.split("\n")[0]?.trim();
  return line || "?";
}
