import fc from "fast-check";
import { expect, it } from "vitest";
import { FUZZ_RUNS, fuzz, readCorpus } from "../../../scripts/fuzz-kit.mjs";
import { createJsonSchemaValidator, type JsonSchemaError } from "../src/index.js";

// Fuzz target: the JSON Schema subset validator (a peer's tool schemas and the values checked against
// them). Differential: the built-in subset validator must give ajv's verdict and errors. The same schema
// wrapped in `allOf` is outside the subset, so ajv checks it; only the schema path differs.
const corpus = readCorpus(new URL("./fuzz-corpus/subset", import.meta.url).pathname).map(
  (text) => JSON.parse(text) as Record<string, unknown>,
);

const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"] as const;
const small = fc.integer({ min: 0, max: 5 });
const bound = fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double({ min: -10, max: 10, noNaN: true }));

/** A subset schema nested at most `depth` levels. */
function schemaOf(depth: number): fc.Arbitrary<Record<string, unknown>> {
  const inner = depth === 0 ? fc.constant({}) : schemaOf(depth - 1);
  return fc.record(
    {
      type: fc.oneof(
        fc.constantFrom(...TYPES),
        fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
      ),
      properties: fc.dictionary(fc.constantFrom("a", "b", "c"), inner, { maxKeys: 3 }),
      required: fc.uniqueArray(fc.constantFrom("a", "b", "c"), { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), inner),
      items: inner,
      enum: fc.uniqueArray(fc.jsonValue({ maxDepth: 1 }), {
        minLength: 1,
        maxLength: 3,
        selector: (v) => JSON.stringify(v),
      }),
      const: fc.jsonValue({ maxDepth: 1 }),
      minimum: bound,
      maximum: bound,
      exclusiveMinimum: bound,
      exclusiveMaximum: bound,
      minLength: small,
      maxLength: small,
      minItems: small,
      maxItems: small,
    },
    { requiredKeys: [] },
  );
}
const schema = schemaOf(2);

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom("a", "b", "c", "d"), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.array(
    fc.oneof(
      fc.integer({ min: -12, max: 12 }),
      fc.double({ min: -12, max: 12, noNaN: true }),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 6 },
  ),
);

const shape = (errors: readonly JsonSchemaError[] | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${e.message}`).sort();

it(
  "subset validator: ajv's verdict and errors for any subset schema and value",
  async () => {
    const subset = createJsonSchemaValidator({ evalFree: false });
    const ajv = createJsonSchemaValidator({ evalFree: false });
    await fuzz(
      "json-schema-subset",
      fc.record({ schema, values: fc.array(value, { minLength: 1, maxLength: 4 }) }),
      async ({ schema, values }) => {
        const ours = subset.compile(schema);
        const theirs = ajv.compile({ allOf: [schema] });
        for (const v of values) {
          const verdict = await ours.validate(v);
          const b = await theirs.validate(v);
          expect(verdict.ok, JSON.stringify({ schema, v })).toBe(b.ok);
          if (!verdict.ok && !b.ok) expect(shape(verdict.errors)).toEqual(shape(b.errors));
        }
      },
      corpus.map((s) => ({ schema: s, values: [{ a: "" }, [1, 2, 3, 4], "aa", null, { a: "x", z: 1 }, 10] })),
    );
    // ajv compiles each generated schema: about 50 ms a run on a busy machine.
  },
  60_000 + FUZZ_RUNS * 200,
);
