import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createJsonSchemaValidator } from "./default-validator.js";

// The eval-free engine stands in for ajv where code generation is refused: forced on here, its verdicts
// are checked against ajv's own on the keywords the built-in subset leaves to the fallback.
const OPTIONS = { strict: false, allErrors: true, logger: false as const, validateFormats: false };

const CASES: Array<{ name: string; schema: Record<string, unknown>; values: unknown[] }> = [
  {
    name: "$ref, $defs, allOf/anyOf, if/then/else (the conformance fixture's shape)",
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { type: "object", properties: { city: { type: "string" } } } },
      properties: {
        address: { $ref: "#/$defs/address" },
        contact: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contact: { const: "phone" } }, required: ["contact"] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
    values: [
      { phone: "1", contact: "phone" },
      { email: "a@b" },
      { contact: "phone", email: "a@b" },
      { email: "a@b", address: { city: 3 } },
      { email: "a@b", other: 1 },
      [],
    ],
  },
  {
    name: "oneOf, not, patternProperties, uniqueItems, prefixItems",
    schema: {
      type: "object",
      properties: {
        pick: { oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }] },
        list: { type: "array", prefixItems: [{ type: "string" }], uniqueItems: true },
        not5: { not: { const: 5 } },
      },
      patternProperties: { "^x-": { type: "boolean" } },
    },
    values: [
      { pick: 1, list: ["a", 1], not5: 4, "x-a": true },
      { pick: 3 },
      { pick: 2.5 },
      { list: [1, 2] },
      { list: ["a", "a"] },
      { not5: 5 },
      { "x-a": "no" },
    ],
  },
  {
    name: "draft-07: items as a list, dependencies",
    schema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
      dependencies: { a: ["b"] },
    },
    values: [{ pair: ["x", 1] }, { pair: [1, "x"] }, { a: 1 }, { a: 1, b: 2 }],
  },
];

describe("the eval-free fallback", () => {
  for (const { name, schema, values } of CASES) {
    it(`[runtimes:eval-free] gives ajv's verdicts: ${name}`, async () => {
      const ajv = schema.$schema?.toString().includes("draft-07") ? new Ajv(OPTIONS) : new Ajv2020(OPTIONS);
      const reference = ajv.compile(schema);
      const compiled = createJsonSchemaValidator({ evalFree: true, nativePatterns: true }).compile(schema);
      for (const value of values) {
        const verdict = await compiled.validate(value);
        expect(verdict.ok, JSON.stringify(value)).toBe(reference(value));
      }
      // Once loaded, the verdict comes synchronously.
      expect(compiled.validate(values[0])).not.toBeInstanceOf(Promise);
    });
  }

  it("[runtimes:eval-free] reports the innermost failing keyword in ajv's shape, with the property named", async () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string" } },
      additionalProperties: false,
      anyOf: [{ required: ["name"] }],
    };
    const verdict = await createJsonSchemaValidator({ evalFree: true }).compile(schema).validate({
      name: 1,
      extra: true,
    });
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.errors.map((e) => [e.instancePath, e.keyword])).toEqual(
      expect.arrayContaining([
        ["/name", "type"],
        ["", "additionalProperties"],
      ]),
    );
    expect(verdict.errors.find((e) => e.keyword === "additionalProperties")?.params).toEqual({
      additionalProperty: "extra",
    });
    expect(verdict.errors.some((e) => e.keyword === "properties")).toBe(false);
  });

  it("[runtimes:eval-free] resolves a $ref to a schema compiled earlier by $id, and leaves the schemas untouched", async () => {
    const validator = createJsonSchemaValidator({ evalFree: true });
    const shared = {
      $id: "https://example.com/point",
      type: "object",
      required: ["x"],
      not: { required: ["z"] },
    };
    const user = { type: "object", properties: { at: { $ref: "https://example.com/point" } }, anyOf: [{}] };
    const before = JSON.stringify([shared, user]);
    validator.compile(shared);
    const compiled = validator.compile(user);
    expect((await compiled.validate({ at: { x: 1 } })).ok).toBe(true);
    expect((await compiled.validate({ at: { y: 1 } })).ok).toBe(false);
    expect(JSON.stringify([shared, user])).toBe(before);
    expect(Object.getOwnPropertyNames(user)).toEqual(["type", "properties", "anyOf"]);
  });

  it("[issue-25.4] where code generation is forbidden, a pattern outside the subset is refused, not run natively", () => {
    const validator = createJsonSchemaValidator({ evalFree: true });
    for (const schema of [
      { anyOf: [{ type: "string", pattern: "^(a+)+$" }] },
      { type: "object", patternProperties: { "^(a+)+$": {} } },
      { $defs: { s: { properties: { deep: { not: { pattern: "^(a|a)+$" } } } } }, oneOf: [{}] },
    ]) {
      expect(() => validator.compile(schema)).toThrow(/does not compile \("pattern" ".*" is refused/);
    }
    // A property named "pattern" is not a pattern.
    expect(() =>
      validator.compile({ properties: { pattern: { type: "string" } }, anyOf: [{}] }),
    ).not.toThrow();
  });

  it("[runtimes:eval-free] a schema the engine cannot use rejects validate with a TypeError", async () => {
    const compiled = createJsonSchemaValidator({ evalFree: true, nativePatterns: true }).compile({
      anyOf: [{ pattern: "(" }],
    });
    await expect(compiled.validate("x")).rejects.toThrow(TypeError);
  });
});
