#!/usr/bin/env node
// Packs the package in the current folder the way pnpm publishes it (publishConfig applied,
// workspace: ranges rewritten), then runs publint and @arethetypeswrong/cli on that tarball.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = (name) => join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", ".bin", name);

const dir = mkdtempSync(join(tmpdir(), "mcpkit-pack-"));
try {
  execFileSync("pnpm", ["pack", "--pack-destination", dir], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(
    dir,
    readdirSync(dir).find((f) => f.endsWith(".tgz")),
  );
  execFileSync(bin("publint"), [tarball, "--strict"], { stdio: "inherit" });
  execFileSync(bin("attw"), [tarball, "--profile", "node16"], { stdio: "inherit" });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
