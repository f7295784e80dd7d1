// A zod schema that cannot convert itself to JSON Schema (zod older than 4.2) is refused with its version.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, type StandardSchemaV1 } from "../src/index.js";

/** The shape a zod schema shows the server: Standard Schema validate, and zod's own internals. */
function zodLike(internals: Record<string, unknown>): StandardSchemaV1 {
  return {
    ...internals,
    "~standard": { version: 1, vendor: "zod", validate: (value: unknown) => ({ value }) },
  } as StandardSchemaV1;
}

describe("zod versions", () => {
  it("names zod 3 and the ways out", () => {
    const server = createServer({ name: "s", version: "1" });
    expect(() =>
      server.registerTool(
        "forecast",
        { inputSchema: zodLike({ _def: { typeName: "ZodObject" } }) },
        () => "x",
      ),
    ).toThrow(
      "Tool forecast inputSchema: zod ≥ 4.2 is needed to convert a zod schema to JSON Schema, you have zod 3.x; upgrade (npm i zod@^4.2), or pass createServer({ toJsonSchema }) with a converter (zod 3: zod-to-json-schema), or give a JSON Schema object",
    );
  });

  it("names a zod 4 before 4.2 by its version", () => {
    const server = createServer({ name: "s", version: "1" });
    expect(() =>
      server.registerTool(
        "forecast",
        { inputSchema: zodLike({ _zod: { version: { major: 4, minor: 1, patch: 3 } } }) },
        () => "x",
      ),
    ).toThrow(/you have zod 4\.1;/);
  });

  it("takes zod ≥ 4.2 as it is, and a converter for an older one", () => {
    const server = createServer({
      name: "s",
      version: "1",
      toJsonSchema: (schema) => ("_def" in schema ? { type: "object", properties: {} } : undefined),
    });
    expect(() =>
      server.registerTool("modern", { inputSchema: z.object({ city: z.string() }) }, () => "x"),
    ).not.toThrow();
    expect(() => server.registerTool("old", { inputSchema: zodLike({ _def: {} }) }, () => "x")).not.toThrow();
  });
});
