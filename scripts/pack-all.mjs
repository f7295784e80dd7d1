#!/usr/bin/env node
// `pnpm pack:all [DIR]`: packs every public package as it would be published (workspace: ranges rewritten,
// publishConfig applied) into DIR (default: packs/), to install and try by hand in a plain npm project:
//   npm i ./packs/mcpkit-*.tgz ./packs/mcpkit-*-*.tgz
// Run after `pnpm build`.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(process.argv[2] ?? join(root, "packs"));
mkdirSync(out, { recursive: true });
for (const dir of readdirSync(join(root, "packages"))) {
  const pkgDir = join(root, "packages", dir);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  } catch {
    continue;
  }
  if (manifest.private) continue;
  execFileSync("pnpm", ["pack", "--pack-destination", out], {
    cwd: pkgDir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  console.log(`${manifest.name}@${manifest.version}`);
}
console.log(`tarballs in ${out}`);
