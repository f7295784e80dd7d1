import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const appDir = fileURLToPath(new URL("..", import.meta.url));
const scratch: string[] = [];

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// A first run may build mcpkit's packages (tsup with declarations) before measuring, hence the long bound.
function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(appDir, "src/run.mjs"), ...args], { cwd: appDir });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 230_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("pnpm bench --smoke", () => {
  // Proves the harness end to end (spawn, pin, measure, report) on one tiny scenario; no timing asserted.
  it("runs scenario 1 for every implementation and writes a report with a figure per row", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "mcpkit-bench-test-"));
    scratch.push(out);
    const { code, stdout, stderr } = await runBench(["--smoke", "--only", "1", "--out", out]);
    expect(code, stderr).toBe(0);
    const report = readFileSync(path.join(out, "smoke-latest.md"), "utf8");
    expect(stdout).toContain(report.split("\n")[0]);
    expect(report).toContain("### 1. stdio, sequential tools/call echo");
    const rows = report.split("\n").filter((l) => /^\| (raw|sdk-v1|sdk-v2|mcpkit)( \(\w+\))? \|/.test(l));
    const impls = rows.map((l) => l.split("|")[1]?.trim().split(" ")[0]);
    // mcpkit's own row is the point of the bench: the report without it fails.
    expect(impls).toEqual(expect.arrayContaining(["raw", "sdk-v1", "sdk-v2", "mcpkit"]));
    expect(rows.filter((l) => /^\| mcpkit( \(\w+\))? \|/.test(l)).length).toBeGreaterThan(0);
    for (const row of rows) {
      const calls = row.split("|")[2] ?? "";
      expect(calls, row).toMatch(/^\s*[\d,]+ \(/);
      expect(calls, row).not.toContain("fails");
    }
  }, 240_000);

  it("exits non-zero when an implementation that must work cannot run", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "mcpkit-bench-test-"));
    scratch.push(out);
    const { code, stderr } = await runBench([
      "--smoke",
      "--only",
      "1",
      "--impl",
      "no-such-impl",
      "--out",
      out,
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/unexpected failure.*\n.*no-such-impl/);
  }, 60_000);
});

describe("the official peers", () => {
  it("are the exact versions @mcpkit/peers pins", () => {
    const read = (file: string) =>
      JSON.parse(readFileSync(file, "utf8")) as { dependencies: Record<string, string> };
    const ours = read(path.join(appDir, "package.json")).dependencies;
    const peers = read(path.join(appDir, "../../packages/peers/package.json")).dependencies;
    const official = Object.keys(ours).filter((n) => n.startsWith("@modelcontextprotocol/") || n === "zod");
    expect(official.length).toBeGreaterThan(0);
    for (const name of official) expect(ours[name], name).toBe(peers[name]);
  });
});
