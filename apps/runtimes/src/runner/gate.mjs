// What the runtimes gate decides from the table it printed, on its own so it is tested.

/**
 * The exit code of `pnpm test:runtimes`: 1 when a cell failed, and also when no cell passed (an empty
 * table, say `--only` naming no runtime, proves nothing); 0 otherwise.
 */
export function gateExitCode({ passed, failed }) {
  return failed > 0 || passed === 0 ? 1 : 0;
}

/**
 * A cell from the era reports a client run printed (`[{ era, ok, checks, error? }]`): it passes only when
 * there is at least one report and every one is ok; an empty report fails.
 */
export function eraCell(reports, what, log = "") {
  if (!Array.isArray(reports) || reports.length === 0) {
    return { status: "fail", detail: `${what}: an empty report (no era ran)`, log: log.slice(-3000) };
  }
  const bad = reports.filter((r) => !r.ok);
  if (bad.length === 0) {
    const served = reports[0]?.checks.find((c) => c.startsWith("served by "));
    const counted = (r) => r.checks.filter((c) => !c.startsWith("served by ")).length;
    const counts = reports.map((r) => `${r.era} ${counted(r)} checks`).join(", ");
    return { status: "pass", detail: `${what}: ${counts}${served ? ` (${served})` : ""}` };
  }
  return {
    status: "fail",
    detail: `${what}: ${bad.map((r) => `${r.era}: ${r.error}`).join("; ")}`,
    log: log.slice(-3000),
  };
}
