import { describe, expect, it } from "vitest";
import { skipProblems, skippedByFile, skipSites } from "../../../scripts/check-skips.mjs";

// The CI step after the tests: a skipped test must say why (scripts/check-skips.mjs).
describe("check-skips (scripts/check-skips.mjs)", () => {
  it("finds skip sites and their reason: a comment above or on the line, or a printed Skipping", () => {
    const text = [
      "// Needs Redis: skips where it is unreachable.",
      'describe.skipIf(missing)("a", () => {});',
      'it.skip("b", () => {}); // flaky upstream, see issue 7',
      "console.warn(`Skipping the c test: no c`);",
      'it.skipIf(!ok)("c", () => {});',
      "const x = 1;",
      "",
      "",
      "",
      "",
      "",
      "",
      'it.todo("d");', // a fixture string for the scanner, not a skip
      'test.runIf(ok)("e", () => {});', // a fixture string for the scanner, not a skip
      "  context.skip();", // a fixture string for the scanner, not a skip
    ].join("\n");
    expect(skipSites(text)).toEqual([
      { line: 2, reason: "Needs Redis: skips where it is unreachable." },
      { line: 3, reason: "flaky upstream, see issue 7" },
      { line: 5, reason: "Skipping the c test: no c" },
      { line: 13, reason: undefined },
      { line: 14, reason: undefined },
      { line: 15, reason: undefined },
    ]);
  });

  it("fails a site without a reason, and skipped tests in a file with no reasoned site", () => {
    const files = new Map([
      ["a.test.ts", '// why\nit.skip("x", () => {});'],
      ["b.test.ts", 'it.skip("y", () => {});'], // a fixture string for the scanner, not a skip
      ["c.test.ts", 'it("z", () => {});'],
    ]);
    const report = {
      testResults: [
        { name: "/r/a.test.ts", assertionResults: [{ status: "pending" }, { status: "passed" }] },
        { name: "/r/c.test.ts", assertionResults: [{ status: "skipped" }] },
        { name: "/r/d.test.ts", assertionResults: [{ status: "passed" }] },
      ],
    };
    const skipped = skippedByFile(report, "/r");
    expect([...skipped]).toEqual([
      ["a.test.ts", 1],
      ["c.test.ts", 1],
    ]);
    expect(skipProblems(files, skipped)).toEqual([
      "b.test.ts:1: a skip without a written reason",
      "c.test.ts: 1 test(s) skipped, and no skip site there says why",
    ]);
    expect(skipProblems(new Map([["a.test.ts", files.get("a.test.ts")!]]), new Map())).toEqual([]);
  });
});
