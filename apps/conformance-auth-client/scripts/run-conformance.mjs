#!/usr/bin/env node
// Runs the official conformance suite's auth scenarios against this client, for both revisions:
// every scored auth/* scenario of 2026-07-28 and 2025-11-25, plus the auth/dpop, auth/dpop-nonce and
// auth/wif-jwt-bearer extensions, the two client-credentials extensions and enterprise-managed
// authorization. Each scenario is one
// `scripts/conformance.mjs` run (the strict tier rule: no FAILURE and at least one SUCCESS).
//
//   node scripts/run-conformance.mjs [--revision 2026-07-28] [--scenario auth/x] [--concurrency 2]
//
// Needs dist/index.js (`pnpm build` first; `pnpm conformance` does both). Exit code 1 when any scenario
// failed, 0 otherwise.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { option, passedCount, runClientScenarios } from "../../../scripts/conformance-scenarios.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const appDir = path.resolve(here, "..");
const bin = path.join(appDir, "dist/index.js");
const scenarios = createRequire(import.meta.url)("@mcpkit/peers/scenarios.json");

const EXTENSIONS = [
  "auth/dpop",
  "auth/dpop-nonce",
  "auth/wif-jwt-bearer",
  "auth/client-credentials-basic",
  "auth/client-credentials-jwt",
  "auth/enterprise-managed-authorization",
];

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
    // Extension scenarios are not on the spec timeline; the CLI runs them at a revision only when forced.
    jobs.push({ revision, name, scored: scored.includes(name), force: !scored.includes(name) });
  }
}

const results = await runClientScenarios({ command: `node ${bin}`, jobs, concurrency, note: "extension" });

let failed = 0;
console.log("");
for (const revision of revisions) {
  const mine = results.filter((r) => r.revision === revision);
  const scored = mine.filter((r) => r.scored);
  const ext = mine.filter((r) => !r.scored);
  failed += mine.length - passedCount(mine);
  console.log(
    `auth ${revision}: ${passedCount(scored)}/${scored.length} scored scenarios passed, extensions ${passedCount(ext)}/${ext.length}`,
  );
}
process.exit(failed > 0 ? 1 : 0);
