import { examples2026, loadSchema, schemaErrors } from "@mcpkit/test-kit/spec";
import { describe, expect, it } from "vitest";

// The spec's own example messages are the oracle: each lives in a folder named after the `$defs` entry
// it illustrates.
const examples = examples2026();

describe("2026-07-28 examples", () => {
  it("are all found (129 messages in 88 definitions)", () => {
    expect(examples.length).toBe(129);
    expect(new Set(examples.map((e) => e.definition)).size).toBe(88);
  });

  it("name only definitions that exist in the schema", () => {
    const defs = loadSchema("2026-07-28").$defs ?? {};
    expect(examples.map((e) => e.definition).filter((d) => !(d in defs))).toEqual([]);
  });

  it.each(examples.map((e) => [`${e.definition}/${e.file}`, e] as const))(
    "%s validates",
    (_name, example) => {
      expect(schemaErrors("2026-07-28", example.definition, example.value)).toBe("");
    },
  );
});
