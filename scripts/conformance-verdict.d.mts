/** One check of a conformance scenario's checks.json. */
export interface ConformanceCheck {
  id?: string;
  status: string;
  errorMessage?: string;
}
/** A scenario's verdict under the strict tier rule, and why it failed when that is not a FAILURE check. */
export declare function scenarioVerdict(checks: readonly ConformanceCheck[] | undefined): {
  verdict: "PASS" | "FAIL";
  why: string;
};
/** Checks counted by status. */
export declare function tallyChecks(checks: readonly ConformanceCheck[]): Record<string, number>;
