import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import scenarios from "../scenarios.json" with { type: "json" };
import {
  type ConformanceScenarios,
  conformanceNodeArgs,
  parseConformanceList,
  type RunningHttpServer,
  startServerEverythingHttp,
} from "./index.js";

const run = promisify(execFile);
const runner = fileURLToPath(new URL("../../../scripts/conformance.mjs", import.meta.url));

/** Runs scripts/conformance.mjs; resolves with its exit code and output instead of throwing. */
async function runRunner(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [runner, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

describe("scenarios.json", () => {
  const known = scenarios as ConformanceScenarios;
  it.concurrent.each([
    ["server", "2025-11-25"],
    ["server", "2026-07-28"],
    ["client", "2025-11-25"],
    ["client", "2026-07-28"],
  ] as const)("matches `conformance list` for %s %s", async (role, rev) => {
    const { stdout } = await run(process.execPath, [
      ...conformanceNodeArgs(),
      "list",
      "--requirements",
      rev,
      `--${role}`,
    ]);
    const listed = parseConformanceList(stdout, role);
    expect(listed.scored).toEqual(known[role][rev]);
    expect(listed.notScored).toEqual(known.notScored[role][rev]);
  });

  it("has the counts CONFORMANCE.md gives", () => {
    expect(known.server["2026-07-28"]).toHaveLength(37);
    expect(known.server["2025-11-25"]).toHaveLength(30);
    expect(known.client["2026-07-28"]).toHaveLength(32);
    expect(known.client["2025-11-25"]).toHaveLength(18);
  });
});

describe("scripts/conformance.mjs against server-everything (a stand-in server)", () => {
  let server: RunningHttpServer;
  const scratch = mkdtempSync(path.join(tmpdir(), "mcpkit-conformance-test-"));
  beforeAll(async () => {
    server = await startServerEverythingHttp({ mode: "streamableHttp" });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("passes a scenario it meets and writes a JSON summary", async () => {
    const summaryFile = path.join(scratch, "ping.json");
    const { code, stdout } = await runRunner([
      "server",
      "--url",
      server.url,
      "--requirements",
      "2025-11-25",
      "--scenario",
      "ping",
      "--quiet",
      "--summary-json",
      summaryFile,
    ]);
    expect(stdout).toContain("conformance server 2025-11-25: 1/1 scenarios passed (0 with warnings)");
    expect(code).toBe(0);
    const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
    expect(summary.scenarios[0]).toMatchObject({ scenario: "ping", verdict: "PASS", scored: true });
    expect(summary.scenarios[0].counts.SUCCESS).toBeGreaterThan(0);
  });

  it("fails on a scenario it misses, unless --expect-fail names it", async () => {
    const args = ["server", "--url", server.url, "--requirements", "2025-11-25"];
    const failing = await runRunner([...args, "--scenario", "prompts-get-simple", "--quiet"]);
    expect(failing.stdout).toMatch(/FAIL\s+prompts-get-simple/);
    expect(failing.stdout).toContain("0/1 scenarios passed");
    expect(failing.code).toBe(1);

    const expected = await runRunner([
      ...args,
      "--scenario",
      "prompts-get-simple",
      "--expect-fail",
      "prompts-get-simple",
      "--quiet",
    ]);
    expect(expected.stdout).toMatch(/XFAIL\s+prompts-get-simple/);
    expect(expected.code).toBe(0);
  });

  it("passes `list` through", async () => {
    const { code, stdout } = await runRunner(["list", "--requirements", "2026-07-28", "--server"]);
    expect(code).toBe(0);
    expect(stdout).toContain("server-stateless");
  });
});
