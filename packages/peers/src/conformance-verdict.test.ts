import { describe, expect, it } from "vitest";
import { scenarioVerdict, tallyChecks } from "../../../scripts/conformance-verdict.mjs";

// The conformance runner's strict tier rule: a scenario passes only with no FAILURE and at least one SUCCESS.
describe("conformance runner verdict (scripts/conformance-verdict.mjs)", () => {
  const check = (status: string) => ({ id: status.toLowerCase(), status });

  it("passes a scenario with a SUCCESS check and no FAILURE, warnings or not", () => {
    expect(scenarioVerdict([check("SUCCESS")])).toEqual({ verdict: "PASS", why: "" });
    expect(scenarioVerdict([check("SUCCESS"), check("WARNING"), check("INFO")]).verdict).toBe("PASS");
  });

  it("fails a scenario with no SUCCESS check: none at all, only warnings, only skipped or info", () => {
    expect(scenarioVerdict([])).toEqual({ verdict: "FAIL", why: "no SUCCESS check" });
    expect(scenarioVerdict([check("WARNING")])).toEqual({
      verdict: "FAIL",
      why: "only warnings, no SUCCESS",
    });
    expect(scenarioVerdict([check("SKIPPED"), check("INFO")])).toEqual({
      verdict: "FAIL",
      why: "no SUCCESS check",
    });
  });

  it("fails a scenario with a FAILURE beside successes, and one that left no results", () => {
    expect(scenarioVerdict([check("SUCCESS"), check("FAILURE")]).verdict).toBe("FAIL");
    expect(scenarioVerdict(undefined)).toEqual({
      verdict: "FAIL",
      why: "no results (not run, crashed or timed out)",
    });
  });

  it("counts checks by status, an unknown status included", () => {
    expect(tallyChecks([check("SUCCESS"), check("SUCCESS"), check("ODD")])).toMatchObject({
      SUCCESS: 2,
      FAILURE: 0,
      ODD: 1,
    });
  });
});
