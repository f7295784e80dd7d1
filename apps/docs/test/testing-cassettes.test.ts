// examples/testing-cassettes.ts is a node:test file a user copies: bundled and run as they would run it,
// each of its three tests (record, replay, verify) must pass.
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";
import { expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

it("testing-cassettes.ts: records, replays and verifies (node:test, all pass)", async () => {
  const script = await bundleFixture(join(root, "examples", "testing-cassettes.ts"));
  const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    execFile(process.execPath, [script], { timeout: 20_000, cwd: root }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout });
    });
  });
  expect(run.stdout).toContain("ok 1 - record a session");
  expect(run.stdout).toContain("ok 2 - replay it: the same answers, without the server");
  expect(run.stdout).toContain(
    "ok 3 - verify: the live server still answers as recorded, a changed one is caught",
  );
  expect(run.stdout).toContain("# fail 0");
  expect(run.code).toBe(0);
});
