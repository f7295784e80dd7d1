// Builds the bin and runs the official conformance suite on a few auth scenarios through the repo's
// runner (real CLI, real HTTP). The full set, both revisions, is `pnpm conformance` in this app.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(appDir, "../..");

beforeAll(async () => {
  await run("pnpm", ["exec", "tsup", "--silent"], { cwd: appDir, timeout: 60_000 });
}, 90_000);

async function scenario(revision: string, name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "auth-conformance-test-"));
  const summary = path.join(dir, "summary.json");
  try {
    await run(
      process.execPath,
      [
        "scripts/conformance.mjs",
        "client",
        "--command",
        `node ${path.join(appDir, "dist/index.js")}`,
        "--requirements",
        revision,
        "--scenario",
        name,
        "--quiet",
        "--summary-json",
        summary,
      ],
      { cwd: root, timeout: 90_000 },
    ).catch((error: unknown) => error);
    const json = JSON.parse(readFileSync(summary, "utf8")) as {
      scenarios: { scenario: string; verdict: string; counts: Record<string, number> }[];
    };
    return json.scenarios.find((s) => s.scenario === name)!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("official conformance suite, auth scenarios", () => {
  it("2026-07-28 auth/metadata-var3 (path issuer, OIDC discovery, modern wire)", async () => {
    const row = await scenario("2026-07-28", "auth/metadata-var3");
    expect(row.verdict).toBe("PASS");
    expect(row.counts.FAILURE).toBe(0);
  }, 120_000);

  it("2026-07-28 auth/iss-wrong-issuer (the client must refuse)", async () => {
    expect((await scenario("2026-07-28", "auth/iss-wrong-issuer")).verdict).toBe("PASS");
  }, 120_000);

  it("2025-11-25 auth/scope-step-up (legacy wire, 403 step-up)", async () => {
    expect((await scenario("2025-11-25", "auth/scope-step-up")).verdict).toBe("PASS");
  }, 120_000);
});
