import { describe, expect, it } from "vitest";
import { eraCell, gateExitCode } from "../src/runner/gate.mjs";

describe("the runtimes gate's verdict (src/runner/gate.mjs)", () => {
  it("exits 1 on a failed cell, and on a table where nothing passed (an empty run proves nothing)", () => {
    expect(gateExitCode({ passed: 12, failed: 0 })).toBe(0);
    expect(gateExitCode({ passed: 12, failed: 1 })).toBe(1);
    expect(gateExitCode({ passed: 0, failed: 0 })).toBe(1);
  });

  it("an empty client report is a failed cell; a report passes only when every era is ok", () => {
    expect(eraCell([], "bun client")).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/empty/),
    });
    expect(eraCell(undefined, "bun client").status).toBe("fail");
    const ok = { era: "2025-11-25", ok: true, checks: ["served by node", "tools/list"] };
    expect(eraCell([ok], "bun client")).toEqual({
      status: "pass",
      detail: "bun client: 2025-11-25 1 checks (served by node)",
    });
    const bad = { era: "2026-07-28", ok: false, checks: [], error: "timed out" };
    expect(eraCell([ok, bad], "bun client")).toMatchObject({
      status: "fail",
      detail: "bun client: 2026-07-28: timed out",
    });
  });
});
