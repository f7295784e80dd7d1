#!/usr/bin/env node
// `pnpm fuzz [--runs N] [--seed S]`: every fuzz target (`*.fuzz.test.ts`) with N generated inputs each
// (default 20000; CI runs them with its small budget inside `pnpm test`), then executions per target.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const runs = option("--runs", "20000");
const seed = option("--seed", String(Date.now() % 2 ** 31));
if (!/^\d+$/.test(runs) || !/^\d+$/.test(seed)) {
  console.error("usage: pnpm fuzz [--runs N] [--seed S]");
  process.exit(2);
}
const targets = execFileSync("git", ["ls-files", "*.fuzz.test.ts"], { encoding: "utf8" })
  .split("\n")
  .filter(Boolean);
const work = mkdtempSync(path.join(tmpdir(), "mcpkit-fuzz-"));
const report = path.join(work, "executions.txt");
console.log(`fuzz: ${targets.length} target files, ${runs} runs per property, seed ${seed}`);
// Each target's test gets time in proportion to its runs (the schema target compiles with ajv per run).
const testTimeout = 60_000 + Number(runs) * 200;
const run = spawnSync("pnpm", ["vitest", "run", `--testTimeout=${testTimeout}`, ...targets], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed, FUZZ_REPORT: report },
});
let lines = [];
try {
  lines = readFileSync(report, "utf8").trim().split("\n").filter(Boolean);
} catch {}
rmSync(work, { recursive: true, force: true });
console.log("\nexecutions per target:");
for (const line of lines) console.log(`  ${line}`);
console.log(`(seed ${seed}: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} pnpm vitest run <file> replays a failure)`);
process.exit(run.status ?? 1);
