/** A skip site: its 1-based line and the reason written for it, if any. */
export interface SkipSite {
  line: number;
  reason: string | undefined;
}
/** The skip sites of one test file's text. */
export declare function skipSites(text: string): SkipSite[];
/** Files (relative to `root`) whose tests the vitest JSON report counts as skipped, with how many. */
export declare function skippedByFile(
  report: { testResults?: Array<{ name: string; assertionResults?: Array<{ status: string }> }> },
  root: string,
): Map<string, number>;
/** One line per problem: a site without a reason, skipped tests in a file with no reasoned site. */
export declare function skipProblems(files: Map<string, string>, skipped: Map<string, number>): string[];
