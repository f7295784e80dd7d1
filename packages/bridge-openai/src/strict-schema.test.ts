import { describe, expect, it } from "vitest";
import { canBeStrict, fromStrictArguments, StrictSchemaError, toStrictJsonSchema } from "./strict-schema.js";

const search = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    query: { type: "string", minLength: 1 },
    limit: { type: "integer", minimum: 1 },
    mode: { type: "string", enum: ["fast", "exact"] },
    filter: {
      type: "object",
      properties: { tag: { type: "string" }, since: { oneOf: [{ type: "string" }, { type: "number" }] } },
      required: ["tag"],
    },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
  },
  required: ["query"],
};

describe("toStrictJsonSchema", () => {
  it("requires every property, makes optional ones nullable, closes objects and drops refused keywords", () => {
    const strict = toStrictJsonSchema(search);
    expect(strict).toEqual({
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: ["integer", "null"], minimum: 1 },
        mode: { type: ["string", "null"], enum: ["fast", "exact", null] },
        filter: {
          type: ["object", "null"],
          properties: {
            tag: { type: "string" },
            since: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
          },
          required: ["tag", "since"],
          additionalProperties: false,
        },
        tags: { type: ["array", "null"], items: { type: "string" } },
      },
      required: ["query", "limit", "mode", "filter", "tags"],
      additionalProperties: false,
    });
    expect(search.properties.query).toEqual({ type: "string", minLength: 1 }); // input untouched
  });

  it("accepts a tool without arguments and merges a single allOf", () => {
    expect(toStrictJsonSchema({ type: "object" })).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(
      toStrictJsonSchema({
        allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }],
      }),
    ).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      additionalProperties: false,
    });
  });

  it("refuses what strict mode cannot express, naming where", () => {
    const freeForm = { type: "object", properties: { meta: { type: "object", additionalProperties: true } } };
    expect(() => toStrictJsonSchema(freeForm)).toThrow(StrictSchemaError);
    expect(() => toStrictJsonSchema(freeForm)).toThrow(/"\/properties\/meta"/);
    expect(() => toStrictJsonSchema({ type: "string" })).toThrow(/root must be an object/);
    expect(() => toStrictJsonSchema({ type: "object", not: { required: ["a"] } })).toThrow(/"not"/);
    expect(canBeStrict(freeForm)).toBe(false);
    expect(canBeStrict(search)).toBe(true);
  });
});

describe("fromStrictArguments", () => {
  it("removes the nulls strict mode makes the model send for optional properties, at any depth", () => {
    const args = { query: "x", limit: null, mode: "fast", filter: { tag: "t", since: null }, tags: null };
    expect(fromStrictArguments(search, args)).toEqual({ query: "x", mode: "fast", filter: { tag: "t" } });
  });

  it("keeps nulls the original schema accepts or requires", () => {
    const schema = {
      type: "object",
      properties: {
        a: { type: ["string", "null"] },
        b: { type: "string" },
        list: { type: "array", items: search },
      },
      required: ["b"],
    };
    const args = { a: null, b: null, list: [{ query: "q", limit: null }] };
    expect(fromStrictArguments(schema, args)).toEqual({ a: null, b: null, list: [{ query: "q" }] });
  });
});
