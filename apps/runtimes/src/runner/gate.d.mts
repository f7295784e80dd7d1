/** One era's report from a client run. */
export interface EraReport {
  era: string;
  ok: boolean;
  checks: string[];
  error?: string;
}
/** A cell of the runtimes table. */
export interface Cell {
  status: "pass" | "fail" | "skip";
  detail: string;
  log?: string;
}
/** The exit code of `pnpm test:runtimes`: 1 on a failed cell or when nothing passed. */
export declare function gateExitCode(counts: { passed: number; failed: number }): 0 | 1;
/** A cell from the era reports of a client run; an empty report fails. */
export declare function eraCell(reports: readonly EraReport[] | undefined, what: string, log?: string): Cell;
