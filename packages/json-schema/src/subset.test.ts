import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadPatternEngine } from "./bounded-pattern.js";
import { equal } from "./json-value.js";
import { formatJsonSchemaErrors } from "./schema-error.js";
import { analyzeSubset, type PatternTester } from "./subset.js";

// The default validator's linear-time engine: its verdicts must be ajv's (native RegExp) too.
const engine = await loadPatternEngine();
const linear: PatternTester = (pattern) => {
  const compiled = engine(pattern);
  return (text) => compiled.test(text);
};

// The options the default validator gives ajv: the built-in subset must match ajv under exactly these.
const OPTIONS = { strict: false, allErrors: true, logger: false as const, validateFormats: false };
const dialects = [
  { name: "2020-12", ajv: new Ajv2020(OPTIONS), $schema: "https://json-schema.org/draft/2020-12/schema" },
  { name: "draft-07", ajv: new Ajv(OPTIONS), $schema: "http://json-schema.org/draft-07/schema#" },
] as const;

type Schema = Record<string, unknown>;

/** Asserts that ajv and the subset validator agree on `schema` for every value: verdict, errors, message. */
function expectSameAsAjv(ajv: Ajv | Ajv2020, schema: Schema, values: unknown[]): void {
  const analysis = analyzeSubset(schema, linear);
  if (analysis.kind !== "subset") throw new Error(`not in the subset: ${JSON.stringify(schema)}`);
  const validate = ajv.compile(schema);
  for (const value of values) {
    let valid: boolean;
    try {
      valid = validate(value);
    } catch (error) {
      // fast-deep-equal calls an own `toString`/`valueOf` of the data: ajv throws, and so must we.
      expect(() => analysis.validate(value)).toThrow((error as Error).message);
      continue;
    }
    const errors = analysis.validate(value);
    expect({ schema, value, valid: errors === null }).toEqual({ schema, value, valid });
    if (!valid) {
      expect(errors).toEqual(validate.errors);
      expect(formatJsonSchemaErrors(errors ?? [], "arguments")).toBe(
        formatJsonSchemaErrors(validate.errors ?? [], "arguments"),
      );
    }
  }
}

const names = ["a", "b", "c d", "x/y", "t~1", "toString", "1", "é"];
const TYPE_NAMES = ["string", "number", "integer", "boolean", "null", "object", "array"];

const primitives = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  2.5,
  3,
  10,
  1e21,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  "a",
  "ab",
  "abc",
  "A1",
  "é",
  "😀",
  "😀😀x",
  "\uD800",
  "1",
  "x/y",
);

/** JSON values for `const`, `enum`, `default` and `examples`. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { maxDepth: 2 },
    fc.constantFrom<unknown>(null, true, false, 0, 1, 2.5, "", "a", "ab", "é"),
    fc.array(tie("json"), { maxLength: 3 }),
    // No "toString" key here: fast-deep-equal would call it when ajv checks the schema.
    fc.dictionary(fc.constantFrom("a", "b", "x/y"), tie("json"), { maxKeys: 3, noNullPrototype: true }),
  ),
}));

/** Values to validate: anything a handler could hand back, null-prototype objects and undefined included. */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3 },
    primitives,
    json,
    fc.constant(undefined),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...names), tie("value"), { maxKeys: 4 }),
  ),
}));

const limit = fc.constantFrom(-1, -0, 0, 1, 2, 2.5, 3, 1e21);
const count = fc.integer({ min: 0, max: 4 });
const patterns = fc.constantFrom("^a", "b$", "\\d", "^[a-z]*$", "é", "\\p{L}+", "^.{2}$", "x/y", '"q"', "~");

const { schema } = fc.letrec<{ schema: Schema; sub: unknown }>((tie) => ({
  sub: fc.oneof({ maxDepth: 3 }, fc.constant(true), tie("schema")),
  schema: fc.record(
    {
      type: fc.oneof(
        fc.constantFrom(...TYPE_NAMES),
        fc.uniqueArray(fc.constantFrom(...TYPE_NAMES), { minLength: 1, maxLength: 3 }),
      ),
      properties: fc.dictionary(fc.constantFrom(...names), tie("sub"), { maxKeys: 3, noNullPrototype: true }),
      required: fc.uniqueArray(fc.constantFrom(...names), { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), tie("sub")),
      items: tie("sub"),
      enum: fc.uniqueArray(json, { minLength: 1, maxLength: 4, comparator: equal }),
      const: json,
      minimum: limit,
      maximum: limit,
      exclusiveMinimum: limit,
      exclusiveMaximum: limit,
      minLength: count,
      maxLength: count,
      pattern: patterns,
      minItems: count,
      maxItems: count,
      format: fc.constantFrom("email", "date-time", "uri"),
      title: fc.string({ maxLength: 3 }),
      description: fc.string({ maxLength: 3 }),
      default: json,
      examples: fc.array(json, { maxLength: 2 }),
      $comment: fc.constant("c"),
      deprecated: fc.boolean(),
      readOnly: fc.boolean(),
      writeOnly: fc.boolean(),
      "x-vendor": json,
    },
    { requiredKeys: [], noNullPrototype: true },
  ),
}));

/** A schema with fewer keywords, so that more values pass and the nested keywords get exercised. */
const focused = fc
  .tuple(schema, fc.subarray(["type", "properties", "required", "additionalProperties", "items", "format"]))
  .map(([s, keep]) => Object.fromEntries(Object.entries(s).filter(([k]) => keep.includes(k))));

describe("the built-in validator gives ajv's verdicts and errors", () => {
  for (const dialect of dialects) {
    it(`[schema:subset-equivalence] random subset schemas and values (${dialect.name})`, () => {
      fc.assert(
        fc.property(
          fc.oneof(schema, focused),
          fc.boolean(),
          fc.array(value, { maxLength: 8 }),
          (s, root, values) => {
            expectSameAsAjv(dialect.ajv, root ? { $schema: dialect.$schema, ...s } : s, values);
          },
        ),
        { numRuns: 400 },
      );
    });

    it(`[schema:subset-edges] where the type error goes, ucs2 lengths, inherited properties (${dialect.name})`, () => {
      const cases: Array<[Schema, unknown[]]> = [
        // No keyword of the type's group: the type error comes first, before enum.
        [{ type: "string", enum: ["a"] }, [1, "b", "a"]],
        // A keyword of the group (even the unvalidated `format`): the type error moves after enum.
        [{ type: "string", format: "email", enum: ["a"] }, [1, "b"]],
        [{ type: "number", format: "x", const: 3 }, ["3", 4]],
        [{ type: "integer", minimum: 3 }, [1.5, 2, Number.NaN, Number.POSITIVE_INFINITY]],
        [{ type: ["string", "null"], minLength: 2 }, [1, null, "a"]],
        [{ type: "object", required: ["toString", "constructor", "a"] }, [{}, { a: undefined }, []]],
        [{ properties: { toString: { type: "string" } } }, [{}, { toString: "x" }]],
        [{ minLength: 2, maxLength: 2 }, ["😀", "😀😀", "\uD800\uD800", "\uDC00a"]],
        // More than 8 properties (ajv tests `hasOwnProperty`), 200 and more `required`/`enum` (ajv loops).
        [
          {
            additionalProperties: false,
            properties: Object.fromEntries([...names, "n9"].map((n) => [n, true])),
          },
          [{ z: 1, n9: 1 }],
        ],
        [{ required: Array.from({ length: 210 }, (_, i) => `p${i}`) }, [{ p3: 1 }]],
        [
          { enum: [...Array.from({ length: 210 }, (_, i) => i), "x", { a: 1 }] },
          [209, "x", { a: 1 }, "y", -0],
        ],
        [{ additionalProperties: { type: "string" }, properties: { a: true } }, [{ a: 1, "p/q~": 2 }]],
        [{ items: { items: { type: "integer" } } }, [[[1, 2.5]], [[], ["x"]]]],
        [
          { const: { a: [1, { b: null }] } },
          [{ a: [1, { b: null }] }, { a: [1, { b: 0 }] }, Object.create(null)],
        ],
        [{ enum: [[1], { a: 1 }, "x", null] }, [[1], { a: 1 }, "x", null, [1, 1], new Date(0)]],
        [{ minimum: -0, exclusiveMaximum: 1e21, const: -0 }, [0, -0, -1, 1e21]],
        [{ pattern: '^"[a-z]+"$' }, ['"ab"', "ab"]],
      ];
      for (const [s, values] of cases) expectSameAsAjv(dialect.ajv, s, values);
    });
  }
});

describe("what the subset leaves to ajv", () => {
  const outside: Schema[] = [
    { $ref: "#/$defs/a", $defs: { a: { type: "string" } } },
    { $defs: {} },
    { definitions: {} },
    { $id: "https://example.com/s" },
    { $anchor: "a" },
    { allOf: [{ type: "string" }] },
    { anyOf: [{ type: "string" }] },
    { oneOf: [{ type: "string" }] },
    { not: { type: "string" } },
    { if: { type: "string" } },
    { patternProperties: { "^a": { type: "string" } } },
    { prefixItems: [{ type: "string" }] },
    { items: [{ type: "string" }] },
    { multipleOf: 2 },
    { uniqueItems: true },
    { minProperties: 1 },
    { maxProperties: 1 },
    { dependentRequired: { a: ["b"] } },
    { dependentSchemas: { a: {} } },
    { propertyNames: { maxLength: 2 } },
    { contains: { type: "string" } },
    { unevaluatedProperties: false },
    { nullable: true },
    { properties: { a: false } },
    { items: false },
    { properties: { a: { $schema: "https://json-schema.org/draft/2020-12/schema" } } },
    { properties: { a: { somethingElse: 1 } } },
    { const: Number.NaN },
    { enum: [undefined] },
    { enum: [{ a: 1 }, { a: 1 }] },
    { title: undefined },
    { deprecated: "yes" },
    { examples: 1 },
    { minimum: Number.POSITIVE_INFINITY },
    JSON.parse('{"properties": {"__proto__": {"type": "string"}}}'),
  ];
  for (const s of outside) {
    it(`[schema:outside] ${JSON.stringify(s)}`, () => {
      expect(analyzeSubset(s, linear).kind).toBe("outside");
    });
  }

  const invalid: Schema[] = [
    { type: "strnig" },
    { type: [] },
    { type: ["string", "string"] },
    { properties: [] },
    { properties: { a: "string" } },
    { required: "a" },
    { required: ["a", "a"] },
    { additionalProperties: null },
    { enum: [] },
    { enum: "a" },
    { minimum: "1" },
    { minLength: -1 },
    { maxItems: 1.5 },
    { pattern: "(" },
    { title: 1 },
    { format: 1 },
  ];
  for (const s of invalid) {
    it(`[schema:invalid] ${JSON.stringify(s)} is refused, as ajv refuses it in both dialects`, () => {
      const analysis = analyzeSubset(s, linear);
      expect(analysis.kind).toBe("invalid");
      for (const dialect of dialects) expect(() => dialect.ajv.compile(s)).toThrow();
    });
  }
});

describe("equal", () => {
  it("[schema:deep-equal] has fast-deep-equal's semantics", () => {
    expect(equal({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(equal({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(equal([Number.NaN], [Number.NaN])).toBe(true);
    expect(equal(/a/g, /a/g)).toBe(true);
    expect(equal(/a/g, /a/i)).toBe(false);
    expect(equal(new Date(1), new Date(1))).toBe(true);
    expect(equal({}, Object.create(null))).toBe(false);
    expect(equal(0, -0)).toBe(true);
  });
});
