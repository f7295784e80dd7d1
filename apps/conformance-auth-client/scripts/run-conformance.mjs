#!/usr/bin/env node
// Runs the official conformance suite's auth scenarios against this client, for both revisions:
// every scored auth/* scenario of 2026-07-28 and 2025-11-25, plus the auth/dpop, auth/dpop-nonce and
// auth/wif-jwt-bearer extensions (and the two client-credentials extensions). Each scenario is one
// `scripts/conformance.mjs` run (the strict tier rule: no FAILURE and at least one SUCCESS).
//
//   node scripts/run-conformance.mjs [--revision 2026-07-28] [--scenario auth/x] [--concurrency 2]
//
// Needs dist/index.js (`pnpm build` first; `pnpm conformance` does both). Exit code 1 when any scenario
// failed, 0 otherwise.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const appDir = path.resolve(here, "..");
const root = path.resolve(appDir, "../..");
const bin = path.join(appDir, "dist/index.js");
const scenarios = createRequire(import.meta.url)("@mcpkit/peers/scenarios.json");

const EXTENSIONS = [
  "auth/dpop",
  "auth/dpop-nonce",
  "auth/wif-jwt-bearer",
  "auth/client-credentials-basic",
  "auth/client-credentials-jwt",
];

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const revisions = option("--revision") ? [option("--revision")] : ["2026-07-28", "2025-11-25"];
const only = option("--scenario");
const concurrency = Number(option("--concurrency") ?? 2);

if (!existsSync(bin)) {
  console.error(`missing ${bin}: run \`pnpm --filter @mcpkit/conformance-auth-client build\` first`);
  process.exit(2);
}

const jobs = [];
for (const revision of revisions) {
  const scored = scenarios.client[revision].filter((n) => n.startsWith("auth/"));
  for (const name of [...scored, ...EXTENSIONS]) {
    if (only && name !== only) continue;
    jobs.push({ revision, name, scored: scored.includes(name) });
  }
}

const work = mkdtempSync(path.join(tmpdir(), "mcpkit-auth-conformance-"));

function run(job, index) {
  const summary = path.join(work, `${index}.json`);
  const args = [
    path.join(root, "scripts/conformance.mjs"),
    "client",
    "--command",
    `node ${bin}`,
    "--requirements",
    job.revision,
    "--scenario",
    job.name,
    // Extension scenarios are not on the spec timeline; the CLI runs them at a revision only when forced.
    ...(job.scored ? [] : ["--force"]),
    "--quiet",
    "--summary-json",
    summary,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.on("close", () => {
      let row;
      try {
        row = JSON.parse(readFileSync(summary, "utf8")).scenarios.find((r) => r.scenario === job.name);
      } catch {
        row = undefined;
      }
      resolve({ ...job, row, output });
    });
  });
}

const results = [];
let next = 0;
await Promise.all(
  Array.from({ length: Math.max(1, concurrency) }, async () => {
    while (next < jobs.length) {
      const index = next++;
      const result = await run(jobs[index], index);
      results[index] = result;
      const c = result.row?.counts ?? { SUCCESS: 0, FAILURE: 0, WARNING: 0 };
      const verdict = result.row?.verdict ?? "FAIL";
      console.log(
        `${verdict.padEnd(4)} ${result.revision} ${result.name.padEnd(38)} ${c.SUCCESS} success, ${c.FAILURE} failure, ${c.WARNING} warning${result.scored ? "" : "  (extension)"}`,
      );
      if (verdict !== "PASS") {
        for (const f of result.row?.failures ?? []) console.log(`       ${f.status} ${f.id}: ${f.message}`);
        if (!result.row) console.log(result.output.split("\n").slice(-20).join("\n"));
      }
    }
  }),
);
rmSync(work, { recursive: true, force: true });

let failed = 0;
console.log("");
for (const revision of revisions) {
  const mine = results.filter((r) => r.revision === revision);
  const pass = (list) => list.filter((r) => r.row?.verdict === "PASS").length;
  const scored = mine.filter((r) => r.scored);
  const ext = mine.filter((r) => !r.scored);
  failed += mine.length - pass(mine);
  console.log(
    `auth ${revision}: ${pass(scored)}/${scored.length} scored scenarios passed, extensions ${pass(ext)}/${ext.length}`,
  );
}
process.exit(failed > 0 ? 1 : 0);
