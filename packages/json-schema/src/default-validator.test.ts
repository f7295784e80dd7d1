import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createJsonSchemaValidator } from "./default-validator.js";
import type { JsonSchema } from "./json-schema-type.js";
import type { JsonSchemaError } from "./schema-error.js";
import type { CompiledJsonSchema, JsonSchemaVerdict } from "./validator.js";

// The options the default validator gives ajv: the reference verdicts come from ajv itself with these.
const OPTIONS = { strict: false, allErrors: true, logger: false as const, validateFormats: false };

/** ajv's own verdict on `value`, in the seam's shape. */
function reference(ajv: Ajv | Ajv2020, schema: object, value: unknown): JsonSchemaVerdict {
  const validate = ajv.compile(schema);
  return validate(value) ? { ok: true } : { ok: false, errors: (validate.errors ?? []) as JsonSchemaError[] };
}

async function settle(compiled: CompiledJsonSchema, value: unknown): Promise<JsonSchemaVerdict> {
  return await compiled.validate(value);
}

describe("createJsonSchemaValidator", () => {
  it("[json-schema:subset-sync] checks a schema of the subset synchronously, with ajv's errors", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer", minimum: 1 } },
      required: ["a"],
      additionalProperties: false,
    };
    const compiled = createJsonSchemaValidator().compile(schema);
    for (const value of [{ a: "x" }, { b: 0.5 }, { a: 1, c: true }, "x"]) {
      const verdict = compiled.validate(value);
      expect(verdict).not.toBeInstanceOf(Promise);
      expect(verdict).toEqual(reference(new Ajv2020(OPTIONS), schema, value));
    }
    // A valid value costs no allocation: the same verdict object every time.
    expect(compiled.validate({ a: "x" })).toBe(compiled.validate({ a: "y" }));
  });

  // The same keywords mean different things in the two dialects: each schema is judged in its own.
  const draft07 = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { t: { items: [{ type: "string" }], additionalItems: false } },
  };
  const draft2020 = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { t: { prefixItems: [{ type: "string" }], items: false } },
  };
  const values = [{ t: ["x"] }, { t: ["x", 1] }, { t: [1] }, { t: [] }, {}];

  it("[json-schema:dialects] judges a draft-07 schema as ajv's draft-07 does", async () => {
    const compiled = createJsonSchemaValidator().compile(draft07);
    for (const value of values) {
      expect(await settle(compiled, value)).toEqual(reference(new Ajv(OPTIONS), draft07, value));
    }
  });

  it("[json-schema:dialects] judges a 2020-12 schema as ajv's 2020-12 does", async () => {
    const compiled = createJsonSchemaValidator().compile(draft2020);
    for (const value of values) {
      expect(await settle(compiled, value)).toEqual(reference(new Ajv2020(OPTIONS), draft2020, value));
    }
  });

  it("[json-schema:fallback-sync] a schema left to ajv answers with a Promise until ajv compiled it, then synchronously", async () => {
    const compiled = createJsonSchemaValidator().compile({
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
    });
    const first = compiled.validate({ c: 1 });
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ ok: false });
    expect(compiled.validate({ b: 1 })).toEqual({ ok: true });
  });

  it("[json-schema:refs] lets schemas of one validator $ref one another by $id, and no other", async () => {
    const validator = createJsonSchemaValidator();
    validator.compile({ $id: "https://example.com/name", type: "string", not: { const: "" } });
    const user = validator.compile({ properties: { n: { $ref: "https://example.com/name" } } });
    expect(await settle(user, { n: "x" })).toEqual({ ok: true });
    expect(await settle(user, { n: 1 })).toMatchObject({ ok: false });
    // Another validator has compiled no such schema.
    expect(() =>
      createJsonSchemaValidator().compile({ properties: { n: { $ref: "https://example.com/name" } } }),
    ).toThrow(/can't resolve reference https:\/\/example.com\/name: .*nothing is fetched/);
  });

  const refusals: Array<[string, unknown, RegExp]> = [
    ["a network $ref", { properties: { a: { $ref: "https://example.com/s.json" } } }, /does not compile/],
    ["a relative $ref with no $id", { properties: { a: { $ref: "other.json" } } }, /does not compile/],
    ["a type that names no type", { properties: { a: { type: "strnig" } } }, /does not compile/],
    ["an invalid pattern", { type: "string", pattern: "(" }, /does not compile/],
    [
      "an unsupported dialect",
      { $schema: "http://json-schema.org/draft-04/schema#" },
      /unsupported JSON Schema dialect/,
    ],
    [
      "2020-12 spelled with http",
      { $schema: "http://json-schema.org/draft/2020-12/schema" },
      /does not compile/,
    ],
    [
      "draft-07 spelled with https",
      { $schema: "https://json-schema.org/draft-07/schema#" },
      /does not compile/,
    ],
    ["an array", [], /must be an object or a boolean/],
  ];
  for (const [name, schema, message] of refusals) {
    it(`[json-schema:compile-error] refuses at compile ${name}, with a TypeError`, () => {
      const validator = createJsonSchemaValidator();
      expect(() => validator.compile(schema as JsonSchema)).toThrow(TypeError);
      expect(() => validator.compile(schema as JsonSchema)).toThrow(message);
    });
  }

  it("[json-schema:fallback-compile-error] a compile error found by ajv rejects every validate with a TypeError", async () => {
    const compiled = createJsonSchemaValidator().compile({ properties: { a: { $ref: "#/$defs/missing" } } });
    for (let i = 0; i < 2; i++) {
      await expect(settle(compiled, { a: 1 })).rejects.toThrow(
        /^the JSON Schema does not compile \(can't resolve reference #\/\$defs\/missing/,
      );
    }
  });

  it("[json-schema:boolean] judges boolean schemas as ajv does", async () => {
    const validator = createJsonSchemaValidator();
    expect(await settle(validator.compile(true), 1)).toEqual({ ok: true });
    expect(await settle(validator.compile(false), 1)).toEqual(
      reference(new Ajv2020(OPTIONS), false as never, 1),
    );
  });
});
