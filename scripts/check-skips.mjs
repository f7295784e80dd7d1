#!/usr/bin/env node
// CI: a skipped test must say why. Two checks, run after the test step:
//   1. every skip site in the tests (`it.skip`, `describe.skipIf`, `runIf`, `todo`, `context.skip()`) has a
//      reason: a `//` comment on its line or among the 6 lines above it, or a printed `console.warn("Skipping …")` there;
//   2. every test the vitest JSON report (.ci-out/vitest.json) counts as skipped is in a file that has such
//      a reasoned site (a skip from nowhere, a stray `.only` elsewhere, fails).
//
//   node scripts/check-skips.mjs [--report .ci-out/vitest.json]
// Exit code: 0 when every skip has a reason, 1 otherwise (each offender printed as file:line).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const SITE =
  /\b(?:it|test|describe|suite)(?:\.(?:concurrent|sequential))?\.(?:skip|skipIf|runIf|todo)\b|\b(?:ctx|context)\.skip\(/;
const LOOKBACK = 6;

/** The skip sites of one file's text: `{ line, reason }` (1-based line; reason undefined when none is written). */
export function skipSites(text) {
  const lines = text.split("\n");
  const sites = [];
  lines.forEach((line, i) => {
    if (!SITE.test(line)) return;
    const trailing = /\/\/\s*(\S.*)$/.exec(line.slice(line.search(SITE)));
    let reason = trailing?.[1];
    for (let j = i - 1; reason === undefined && j >= Math.max(0, i - LOOKBACK); j--) {
      const comment = /^\s*(?:\/\/|\*|\/\*\*?)\s*(\S.*)$/.exec(lines[j]);
      // A reason printed when it skips counts as written: console.warn(`Skipping …: ${why}`).
      const printed = /console\.(?:warn|log|info)\(\s*[`"']Skipping\b([^`"']*)/.exec(lines[j]);
      if (comment) reason = comment[1];
      else if (printed) reason = `Skipping${printed[1]}`;
    }
    sites.push({ line: i + 1, reason });
  });
  return sites;
}

/** The files (relative paths) whose tests the report counts as skipped, with how many. */
export function skippedByFile(report, root) {
  const out = new Map();
  for (const file of report.testResults ?? []) {
    const skipped = (file.assertionResults ?? []).filter((a) =>
      ["skipped", "pending", "todo", "disabled"].includes(a.status),
    ).length;
    if (skipped > 0) out.set(path.relative(root, file.name), skipped);
  }
  return out;
}

/** Problems, one line each: sites without a reason, and skipped tests in a file with no reasoned site. */
export function skipProblems(files, skipped) {
  const problems = [];
  const reasoned = new Set();
  for (const [file, text] of files) {
    for (const site of skipSites(text)) {
      if (site.reason === undefined) problems.push(`${file}:${site.line}: a skip without a written reason`);
      else reasoned.add(file);
    }
  }
  for (const [file, count] of skipped) {
    if (!reasoned.has(file))
      problems.push(`${file}: ${count} test(s) skipped, and no skip site there says why`);
  }
  return problems;
}

function main() {
  const root = process.cwd();
  const i = process.argv.indexOf("--report");
  const reportPath = i >= 0 ? process.argv[i + 1] : ".ci-out/vitest.json";
  const listed = execFileSync("git", ["ls-files", "*.ts", "*.mts", "*.js", "*.mjs"], { encoding: "utf8" })
    .split("\n")
    .filter((f) => f && /(^|\/)(test|tests)\/|\.(test|e2e|spec)\.[mc]?[jt]s$/.test(f) && existsSync(f));
  const files = new Map(listed.map((f) => [f, readFileSync(f, "utf8")]));
  const skipped = existsSync(reportPath)
    ? skippedByFile(JSON.parse(readFileSync(reportPath, "utf8")), root)
    : new Map();
  if (!existsSync(reportPath))
    console.log(`check-skips: no report at ${reportPath}; checking the sites only`);
  const problems = skipProblems(files, skipped);
  const total = [...skipped.values()].reduce((a, b) => a + b, 0);
  for (const p of problems) console.error(p);
  console.log(
    `check-skips: ${total} skipped test(s) in ${skipped.size} file(s), ${problems.length} problem(s)`,
  );
  if (problems.length > 0) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname))
  main();
