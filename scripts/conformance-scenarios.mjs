// Runs official conformance client scenarios one `scripts/conformance.mjs` run each (the strict tier rule:
// no FAILURE and at least one SUCCESS), a few at a time, printing a line per scenario. Shared by the
// conformance apps' run scripts. The suite's mock servers all live in its CLI process: a whole requirement
// set at once answered its first request only after 20-30 s on a busy 2-core machine, hence the pool.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The value after `name` on the command line, if any. */
export function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function runOne(command, job, summary) {
  const args = [
    path.join(root, "scripts/conformance.mjs"),
    "client",
    "--command",
    command,
    "--requirements",
    job.revision,
    "--scenario",
    job.name,
    ...(job.force ? ["--force"] : []),
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
      resolve({ ...job, row, output, passed: row?.verdict === "PASS" });
    });
  });
}

/**
 * Runs `jobs` (`{ revision, name, scored, force? }`) against the client `command`, `concurrency` at a
 * time, and resolves with each job plus its summary `row` and `passed`. `note` labels unscored jobs.
 */
export async function runClientScenarios({ command, jobs, concurrency = 2, note = "not scored" }) {
  const work = mkdtempSync(path.join(tmpdir(), "mcpkit-conformance-"));
  const results = [];
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, concurrency) }, async () => {
        while (next < jobs.length) {
          const index = next++;
          const result = await runOne(command, jobs[index], path.join(work, `${index}.json`));
          results[index] = result;
          const c = result.row?.counts ?? { SUCCESS: 0, FAILURE: 0, WARNING: 0 };
          const verdict = result.row?.verdict ?? "FAIL";
          console.log(
            `${verdict.padEnd(4)} ${result.revision} ${result.name.padEnd(38)} ${c.SUCCESS} success, ${c.FAILURE} failure, ${c.WARNING} warning${result.scored ? "" : `  (${note})`}`,
          );
          if (!result.passed) {
            for (const f of result.row?.failures ?? [])
              console.log(`       ${f.status} ${f.id}: ${f.message}`);
            if (!result.row) console.log(result.output.split("\n").slice(-20).join("\n"));
          }
        }
      }),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return results;
}

/** How many of `results` passed. */
export function passedCount(results) {
  return results.filter((r) => r.passed).length;
}
