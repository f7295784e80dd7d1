// The page's JSON Schema logic (pure, run in Node): starting values and the checks before a call.
import { describe, expect, it } from "vitest";
import { choicesOf, initialValue, pruneEmpty, validate } from "../app/src/schema-values.js";
import type { Schema } from "../app/src/types.js";

const schema: Schema = {
  type: "object",
  required: ["name", "size"],
  properties: {
    name: { type: "string", minLength: 2 },
    size: { type: "string", enum: ["s", "m", "l"] },
    count: { type: "integer", default: 3, minimum: 1, maximum: 10 },
    tags: { type: "array", items: { type: "string" }, maxItems: 2 },
    hero: {
      type: "string",
      oneOf: [
        { const: "h1", title: "Superman" },
        { const: "h2", title: "Batman" },
      ],
    },
    nested: {
      type: "object",
      required: ["x"],
      properties: { x: { type: "number" }, on: { type: "boolean", default: true } },
    },
  },
};

describe("the form's schema logic", () => {
  it("starts from defaults, the first choice of a required enum, and nested objects", () => {
    expect(initialValue(schema)).toEqual({ size: "s", count: 3, nested: { on: true } });
  });

  it("reads oneOf consts and enumNames as labelled choices", () => {
    expect(choicesOf(schema.properties?.hero as Schema)).toEqual([
      { value: "h1", label: "Superman" },
      { value: "h2", label: "Batman" },
    ]);
    expect(choicesOf({ enum: ["a"], enumNames: ["Apple"] })).toEqual([{ value: "a", label: "Apple" }]);
  });

  it("names each problem with its path", () => {
    const problems = validate(schema, {
      size: "xl",
      count: 2.5,
      tags: ["a", "b", "c"],
      hero: "h3",
      nested: { x: "1" },
    });
    expect(problems.map((p) => `${p.path} ${p.message}`)).toEqual([
      "name is required",
      'size must be one of "s", "m", "l"',
      "count must be an integer",
      "tags takes at most 2 items",
      'hero must be one of "h1", "h2"',
      "nested.x must be a number",
    ]);
    expect(validate(schema, { name: "Ada", size: "m", nested: { x: 1 } })).toEqual([]);
    expect(
      validate(schema, { name: "A", size: "m", count: 11, nested: { x: 1 } }).map((p) => p.message),
    ).toEqual(["must have at least 2 characters", "must be ≤ 10"]);
  });

  it("drops the optional fields left empty", () => {
    expect(pruneEmpty({ a: "", b: undefined, c: { d: "", e: 1 }, f: [""] })).toEqual({
      c: { e: 1 },
      f: [""],
    });
  });
});
