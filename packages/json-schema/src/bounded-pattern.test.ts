import { describe, expect, it } from "vitest";
import { loadPatternEngine, patternRefusal } from "./bounded-pattern.js";
import { createJsonSchemaValidator } from "./default-validator.js";

const engine = await loadPatternEngine();

describe("patterns on the linear-time engine", () => {
  it("[issue-25.4] a pattern with lookaround or a backreference from a peer is refused at compile, naming it", () => {
    const validator = createJsonSchemaValidator();
    for (const pattern of ["^(?=(a+)+$)", "(?!b)a", "(?<=a)b", "(a)\\1", "(?<x>a)\\k<x>"]) {
      expect(() => validator.compile({ type: "string", pattern })).toThrow(
        new RegExp(
          `does not compile.*${JSON.stringify(pattern).replace(/[\\^$()?*+[\]{}|.]/g, "\\$&")} is refused`,
        ),
      );
    }
  });

  it("[issue-25.4] in ajv's path a refused pattern rejects every validate with the reason, patternProperties too", async () => {
    const validator = createJsonSchemaValidator({ evalFree: false });
    for (const schema of [
      { anyOf: [{ type: "string", pattern: "^(?=(a+)+$)" }] },
      { patternProperties: { "(a)\\1": { type: "string" } } },
    ]) {
      await expect(validator.compile(schema).validate("x")).rejects.toThrow(/does not compile.*is refused/);
    }
  });

  it("[issue-25.4] a pattern too large for RE2 is refused, not run", async () => {
    const schema = { type: "string", pattern: "(a{1,1000}){1,1000}" };
    // At compile when the engine has loaded, else on the first validate: never a verdict.
    const outcome = Promise.resolve().then(() => createJsonSchemaValidator().compile(schema).validate("a"));
    await expect(outcome).rejects.toThrow(/does not compile.*refused by the linear-time engine/);
  });

  it("[issue-25.4] nativePatterns: the app's own trusted schemas may use lookaround", async () => {
    const compiled = createJsonSchemaValidator({ nativePatterns: true }).compile({
      type: "string",
      pattern: "^(?!admin$)[a-z]+$",
    });
    expect(await compiled.validate("alice")).toEqual({ ok: true });
    expect((await compiled.validate("admin")).ok).toBe(false);
  });

  it("[json-schema:patterns] ECMAScript meanings kept: `.` and `\\s`/`\\S`, classes, escapes, Unicode", () => {
    const cases: Array<[string, string]> = [
      ["^.$", "\r"],
      ["^.$", "\u2028"],
      ["^.$", "😀"],
      ["^\\s$", "\u00a0"],
      ["^\\S$", "\ufeff"],
      ["^[\\s]$", "\u3000"],
      ["^[\\S]$", "😀"],
      ["^[^\\s]$", "\v"],
      ["^[\\s\\S]*$", "a\nb\u2028"],
      ["a[]b", "ab"],
      ["^[^]$", "\n"],
      ["^[.]$", "x"],
      ["\\\\s", "\\s"],
      ["(?<y>a)b", "ab"],
      ["^\\p{Lu}$", "É"],
      ["[\\]]", "]"],
      ["^\\u{1F600}\\u00e9$", "😀é"],
      ["\\bx\\B", "a xy"],
      ["a$", "a\n"],
    ];
    for (const [pattern, text] of cases) {
      const expected = new RegExp(pattern, "u").test(text);
      expect({ pattern, text, matches: engine(pattern).test(text) }).toEqual({
        pattern,
        text,
        matches: expected,
      });
    }
  });

  it("[json-schema:patterns] patternRefusal finds lookaround and backreferences only outside escapes", () => {
    expect(patternRefusal("\\(?=a")).toBeUndefined();
    expect(patternRefusal("[(?=]")).toBeUndefined();
    expect(patternRefusal("\\\\1")).toBeUndefined();
    expect(patternRefusal("(?<name>a)")).toBeUndefined();
    expect(patternRefusal("(?=a)")).toMatch(/a lookaround cannot run in linear time/);
    expect(patternRefusal("(a)\\1")).toMatch(/a backreference cannot run in linear time/);
  });
});
