#!/usr/bin/env node
// `pnpm bench [--smoke] [--only 1,3] [--impl raw,sdk-v1] [--rounds N] [--out DIR] [--no-sizes] [--no-build] [--profile [--duration MS]]`
// Builds mcpkit's packages when their dist is missing or stale, runs the benchmark, prints the tables and
// writes bench-results/<timestamp>.md, latest.md and latest.json. Exits 1 when an implementation that is
// expected to work failed (the official SDKs failing at 15 MiB is expected and reported as "fails").
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { mcpkitMissing, runBench } from "./bench.mjs";
import { ensureBuilt } from "./build.mjs";
import { appDir } from "./procs.mjs";
import { profilesMarkdown } from "./profile.mjs";

const { values } = parseArgs({
  options: {
    smoke: { type: "boolean", default: process.env.BENCH_SMOKE === "1" },
    only: { type: "string" },
    impl: { type: "string" },
    rounds: { type: "string" },
    out: { type: "string" },
    "no-sizes": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    duration: { type: "string" },
    warmup: { type: "string" },
  },
});

const options = { smoke: values.smoke, sizes: !values["no-sizes"] };
if (values.only) options.only = values.only.split(",").map(Number);
if (values.impl) options.impls = values.impl.split(",");
if (values.rounds) options.rounds = Number(values.rounds);
if (values.duration) options.durationMs = Number(values.duration);
if (values.warmup) options.warmupMs = Number(values.warmup);
const outDir = path.resolve(values.out ?? path.join(appDir, "bench-results"));
// --profile: every measured node process writes a CPU profile; profiles.md lists the hot spots per case.
const profileDir = path.join(outDir, "profiles", new Date().toISOString().replace(/[:.]/g, "-"));
if (values.profile) options.profileDir = profileDir;

// --no-build measures the dist as it is (a tree where a package under edit does not build).
if (!values["no-build"] && (!options.impls || options.impls.includes("mcpkit")) && !mcpkitMissing())
  ensureBuilt();
const { report, failures, meta, tables, sizes } = await runBench(options);
mkdirSync(outDir, { recursive: true });
const stamp = meta.date.replace(/[:.]/g, "-");
writeFileSync(path.join(outDir, `${meta.smoke ? "smoke-" : ""}${stamp}.md`), report);
writeFileSync(path.join(outDir, meta.smoke ? "smoke-latest.md" : "latest.md"), report);
// Every sample of every row, for whoever wants to look past the medians.
const raw = tables.map((t) => ({
  id: t.id,
  title: t.title,
  rows: t.cases.map((c) => ({ label: c.label, samples: c.samples })),
}));
writeFileSync(
  path.join(outDir, meta.smoke ? "smoke-latest.json" : "latest.json"),
  JSON.stringify({ meta, tables: raw, sizes }, null, 1),
);
process.stdout.write(`${report}\n`);
process.stderr.write(
  `report written to ${path.join(outDir, meta.smoke ? "smoke-latest.md" : "latest.md")}\n`,
);
if (values.profile) {
  const repo = path.resolve(appDir, "../..");
  const parts = [`# CPU profiles (${meta.date}; timings of a profiled run are inflated)`, ""];
  for (const t of tables) {
    for (const c of t.cases)
      for (const dir of c.profileDirs ?? [])
        parts.push(profilesMarkdown(dir, `${t.title} · ${c.label}`, repo));
  }
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(path.join(profileDir, "profiles.md"), parts.join("\n"));
  process.stderr.write(`profiles and their summary: ${path.join(profileDir, "profiles.md")}\n`);
}
if (failures.length) {
  process.stderr.write(
    `\n${failures.length} unexpected failure(s):\n${failures.map((f) => `  - ${f}`).join("\n")}\n`,
  );
  process.exit(1);
}
