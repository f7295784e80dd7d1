// The strict tier rule of the conformance runner (scripts/conformance.mjs), on its own so it is tested.

/**
 * The verdict of one scenario from its checks (`undefined`: the scenario left no results). A scenario
 * PASSES only with no FAILURE check and at least one SUCCESS check; the official CLI also lets one with
 * only warnings, or with no checks at all, pass.
 */
export function scenarioVerdict(checks) {
  if (checks === undefined) return { verdict: "FAIL", why: "no results (not run, crashed or timed out)" };
  const counts = tallyChecks(checks);
  if (counts.FAILURE > 0) return { verdict: "FAIL", why: "" };
  if (counts.SUCCESS === 0) {
    return { verdict: "FAIL", why: counts.WARNING > 0 ? "only warnings, no SUCCESS" : "no SUCCESS check" };
  }
  return { verdict: "PASS", why: "" };
}

/** Checks counted by status (SUCCESS, FAILURE, WARNING, SKIPPED, INFO, and any other the CLI reports). */
export function tallyChecks(checks) {
  const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  return counts;
}
