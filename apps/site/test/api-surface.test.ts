// The API report's reader (scripts/api-surface.mjs) and the doc-comment check (scripts/api-doc-comments.mjs),
// on a fixture package with one export of each kind: what a report says, that a change of a signature
// changes it, and that an export without a doc comment is named.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readExportDocs } from "../../../scripts/api-doc-comments.mjs";
import { createSurfaceProgram, readSurface } from "../../../scripts/api-surface.mjs";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "api-pkg");
const entry = (dir: string) => ({
  pkg: "api-pkg",
  dir,
  subpath: ".",
  source: join(dir, "src", "index.ts"),
  types: undefined,
});

function report(dir: string) {
  const entries = [entry(dir)];
  const program = createSurfaceProgram(entries);
  const [pkg] = readSurface(entries, program);
  return { exports: pkg!.entries[0]!.exports, docs: readExportDocs(program, entries) };
}

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe("the API report of a package", () => {
  const { exports, docs } = report(fixture);
  const lines = Object.fromEntries(exports.map((e) => [e.name, e.lines.join("\n")]));

  it("lists every export by name, with the signature the checker reads", () => {
    expect(exports.map((e) => e.name)).toEqual([
      "ANSWER",
      "Greeter",
      "GreeterOptions",
      "Greeting",
      "add",
      "parse",
      "undocumented",
    ]);
    expect(lines.add).toBe("function add(a: number, b: number): number");
    expect(lines.parse).toBe(
      "function parse(text: string): number\nfunction parse(text: string, radix: number): number",
    );
    expect(lines.ANSWER).toBe("const ANSWER: 42");
    expect(lines.undocumented).toBe("const undocumented: (value: string) => number");
    expect(lines.Greeting).toBe('type Greeting = "hello" | "goodbye";');
    expect(lines.GreeterOptions).toBe(
      "interface GreeterOptions {\n    readonly name: string;\n    loud?: boolean;\n}",
    );
  });

  it("shows a class's public members only, statics marked", () => {
    expect(lines.Greeter).toBe(
      [
        "class Greeter {",
        "    constructor(options: GreeterOptions);",
        "    readonly name: string;",
        "    greet(): Greeting;",
        "    static create(name: string): Greeter;",
        "}",
      ].join("\n"),
    );
  });

  it("names the export without a doc comment (an overload's implementation needs none)", () => {
    expect(exports.filter((e) => !e.documented).map((e) => e.name)).toEqual(["undocumented"]);
    expect(docs.total).toBe(7);
    expect(docs.missing).toHaveLength(1);
    expect(docs.missing[0]).toMatch(/api-pkg\/src\/index\.ts:\d+ undocumented$/);
  });

  it("changes when a signature changes, not when only the formatting does", () => {
    const copy = mkdtempSync(join(tmpdir(), "api-pkg-"));
    copies.push(copy);
    const source = readFileSync(join(fixture, "src", "index.ts"), "utf8");
    const write = (text: string) => {
      rmSync(join(copy, "src"), { recursive: true, force: true });
      mkdirSync(join(copy, "src"));
      writeFileSync(join(copy, "src", "index.ts"), text);
    };
    write(source.replace("  loud?: boolean;", "  loud?:    boolean;   "));
    expect(report(copy).exports.map((e) => e.lines)).toEqual(exports.map((e) => e.lines));
    write(
      source.replace(
        "export function add(a: number, b: number)",
        "export function add(a: number, b: string)",
      ),
    );
    expect(report(copy).exports.find((e) => e.name === "add")?.lines).toEqual([
      "function add(a: number, b: string): number",
    ]);
  });
});
