#!/usr/bin/env node
// Runs the official conformance suite's client scenarios that are not auth/* against this client, for
// both revisions: every scored one (2026-07-28 and 2025-11-25), plus the not-scored
// json-schema-2020-12-preservation, reported but never failing the run, and the Skills extension's four
// client scenarios (forced at each revision: extensions are not on the spec timeline), which must pass. Each scenario is one
// `scripts/conformance.mjs` run (the strict tier rule: no FAILURE and at least one SUCCESS), a few at a
// time: the suite's mock servers all live in the CLI process, and on a busy 2-core machine a whole
// requirement set at once answers its first request after 20-30 s.
//
//   node scripts/run-conformance.mjs [--revision 2026-07-28] [--scenario NAME] [--concurrency 2] [--no-build]
//
// Builds dist/index.js first unless told not to (or it is newer than every source file). Exit code 1 when
// a scored scenario failed, 0 otherwise. auth/* scenarios are apps/conformance-auth-client's.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { option, passedCount, runClientScenarios } from "../../../scripts/conformance-scenarios.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const appDir = path.resolve(here, "..");
const root = path.resolve(appDir, "../..");
const bin = path.join(appDir, "dist/index.js");
const scenarios = createRequire(import.meta.url)("@mcpkit/peers/scenarios.json");

const EXTENSIONS = [
  "sep-2640-client-no-prefetch",
  "sep-2640-client-verify-digest",
  "sep-2640-client-verify-size",
  "sep-2640-client-verify-frontmatter",
];

const revisions = option("--revision") ? [option("--revision")] : ["2026-07-28", "2025-11-25"];
const only = option("--scenario");
const concurrency = Math.max(1, Number(option("--concurrency") ?? 2));

/** Newest modification time under the given folders (sources the bundle is built from). */
function newest(...dirs) {
  let latest = 0;
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { recursive: true })) {
      const file = path.join(dir, String(entry));
      if (file.includes(`${path.sep}node_modules${path.sep}`) || !file.endsWith(".ts")) continue;
      latest = Math.max(latest, statSync(file).mtimeMs);
    }
  }
  return latest;
}

const sources = ["apps/conformance-client/src", "packages/client/src", "packages/transport-http/src"].map(
  (d) => path.join(root, d),
);
const stale = !existsSync(bin) || statSync(bin).mtimeMs < newest(...sources);
if (!process.argv.includes("--no-build") && stale) {
  console.log("building dist/index.js …");
  const built = spawnSync("pnpm", ["exec", "tsup", "--silent"], { cwd: appDir, stdio: "inherit" });
  if (built.status !== 0) process.exit(2);
}
if (!existsSync(bin)) {
  console.error(`missing ${bin}: run \`pnpm --filter @mcpkit/conformance-client build\` first`);
  process.exit(2);
}

const jobs = [];
for (const revision of revisions) {
  const scored = scenarios.client[revision].filter((n) => !n.startsWith("auth/"));
  const extra = scenarios.notScored.client[revision].filter((n) => !n.startsWith("auth/"));
  for (const name of [...scored, ...extra]) {
    if (only && name !== only) continue;
    jobs.push({ revision, name, scored: scored.includes(name) });
  }
  for (const name of EXTENSIONS) {
    if (only && name !== only) continue;
    jobs.push({ revision, name, scored: false, extension: true, force: true });
  }
}
if (jobs.length === 0) {
  console.error(`no scenario to run (revision ${revisions.join(", ")}${only ? `, scenario ${only}` : ""})`);
  process.exit(2);
}

const started = Date.now();
const results = await runClientScenarios({ command: `node ${bin}`, jobs, concurrency });

let failed = 0;
console.log("");
for (const revision of revisions) {
  const mine = results.filter((r) => r.revision === revision);
  const scored = mine.filter((r) => r.scored);
  const ext = mine.filter((r) => r.extension);
  const extra = mine.filter((r) => !r.scored && !r.extension);
  failed += scored.length - passedCount(scored) + ext.length - passedCount(ext);
  console.log(
    `client ${revision}: ${passedCount(scored)}/${scored.length} scored non-auth scenarios passed` +
      (ext.length ? `, extensions ${passedCount(ext)}/${ext.length}` : "") +
      (extra.length ? `, not scored ${passedCount(extra)}/${extra.length}` : ""),
  );
}
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(failed > 0 ? 1 : 0);
