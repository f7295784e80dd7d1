// The fuzz targets' harness (fast-check, seeded). A target is a vitest test file named `*.fuzz.test.ts`;
// its seed inputs live in the corpus folder beside it (`test/fuzz-corpus/<target>/`, one file per input)
// and run first, then FUZZ_RUNS generated inputs (default 300: the CI budget) from FUZZ_SEED.
// `pnpm fuzz --runs N` runs every target longer (scripts/fuzz.mjs).
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";

/** Generated inputs per property: FUZZ_RUNS, else the CI budget. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** The seed of every run: FUZZ_SEED, else a fixed one, so a CI failure replays exactly. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261201);

/** The seed inputs of a target: the text of each file in `dir`, in name order. */
export function readCorpus(dir) {
  return readdirSync(dir)
    .filter((f) => !f.startsWith("."))
    .sort()
    .map((f) => readFileSync(path.join(dir, f), "utf8"));
}

/**
 * Checks `predicate` on each `seeds` input, then on FUZZ_RUNS inputs from `arbitrary`; a failure throws
 * fast-check's report (the shrunk input, the seed and path to replay it). Appends `name executions` to
 * the file FUZZ_REPORT names, when set. Resolves with the number of executions.
 */
export async function fuzz(name, arbitrary, predicate, seeds = []) {
  let executions = 0;
  const counted = async (input) => {
    executions++;
    await predicate(input);
  };
  for (const seed of seeds) await counted(seed);
  await fc.assert(fc.asyncProperty(arbitrary, counted), { numRuns: FUZZ_RUNS, seed: FUZZ_SEED });
  if (process.env.FUZZ_REPORT) appendFileSync(process.env.FUZZ_REPORT, `${name} ${executions}\n`);
  return executions;
}
