import { createJsonSchemaValidator, type JsonSchema, type JsonSchemaValidator } from "@mcpkit/json-schema";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../src/index.js";
import { SchemaCompiler } from "../src/internal/schema.js";
import { connectClient, meta } from "./helpers.js";

/** A validator that records what it compiled and answers with the verdicts it is told. */
function recordingValidator(answer: "valid" | "invalid" | "async-error" | "refuse") {
  const compiled: unknown[] = [];
  const validator: JsonSchemaValidator = {
    compile(schema) {
      compiled.push(schema);
      if (answer === "refuse") throw new TypeError("this engine refuses the schema");
      return {
        validate() {
          if (answer === "async-error") return Promise.reject(new TypeError("late compile error"));
          if (answer === "valid") return { ok: true };
          return {
            ok: false,
            errors: [
              { instancePath: "/a", schemaPath: "", keyword: "custom", params: {}, message: "is odd" },
            ],
          };
        },
      };
    },
  };
  return { validator, compiled };
}

describe("the server's JSON Schema validator seam", () => {
  it("[schema:validator-option] compiles every JSON Schema with the validator it is given, and reports its verdicts", () => {
    const { validator, compiled } = recordingValidator("invalid");
    const compiler = new SchemaCompiler(undefined, validator);
    const input = { properties: { a: { type: "number" } } };
    const { check } = compiler.compile(input, "input", "Tool t inputSchema", true);
    const output = { type: "object" };
    compiler.compile(output, "output", "Tool t outputSchema", false);
    // The input root gained its `type: "object"` before the validator saw it.
    expect(compiled).toEqual([{ type: "object", ...input }, output]);
    expect(check({ a: 1 })).toEqual({ ok: false, message: "arguments/a is odd" });
  });

  it("[schema:validator-option] leaves Standard Schemas to their own validate", () => {
    const { validator, compiled } = recordingValidator("valid");
    const { check } = new SchemaCompiler(undefined, validator).compile(
      z.object({ a: z.number() }),
      "input",
      "Tool t inputSchema",
      true,
    );
    expect(compiled).toEqual([]);
    expect(check({ a: "x" })).toMatchObject({ ok: false });
  });

  it("[schema:validator-option] names the schema in the validator's compile errors, at once or found later", async () => {
    const refusing = new SchemaCompiler(undefined, recordingValidator("refuse").validator);
    expect(() => refusing.compile({}, "input", "Tool t inputSchema", true)).toThrow(
      new TypeError("Tool t inputSchema: this engine refuses the schema"),
    );
    const late = new SchemaCompiler(undefined, recordingValidator("async-error").validator);
    const { check } = late.compile({}, "output", "Tool t outputSchema", false);
    await expect(check({})).rejects.toThrow(new TypeError("Tool t outputSchema: late compile error"));
  });

  it("[schema:validator-default] without one, the server uses protocol's default validator: same verdicts, same refusals", async () => {
    const compiler = new SchemaCompiler(undefined);
    const reference = createJsonSchemaValidator();
    const schemas: JsonSchema[] = [
      { type: "object", properties: { a: { type: "string", minLength: 2 } }, required: ["a"] },
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { t: { items: [{ type: "string" }], additionalItems: false } },
      },
    ];
    for (const schema of schemas) {
      const { check } = compiler.compile(schema, "input", "Tool t inputSchema", true);
      const compiled = reference.compile(schema);
      for (const value of [{ a: "xy" }, { a: "x" }, {}, { t: ["x"] }, { t: ["x", 1] }]) {
        const verdict = await compiled.validate(value);
        expect(await check(value)).toMatchObject({ ok: verdict.ok });
      }
    }
    const dialect = { $schema: "http://json-schema.org/draft-04/schema#", type: "object" };
    expect(() => reference.compile(dialect)).toThrow(/^unsupported JSON Schema dialect/);
    expect(() => compiler.compile(dialect, "input", "Tool t inputSchema", true)).toThrow(
      /^Tool t inputSchema: unsupported JSON Schema dialect/,
    );
  });

  it("[schema:validator-option] createServer({ validator }) is the engine that judges a tool's arguments", async () => {
    const { validator, compiled } = recordingValidator("invalid");
    const server = createServer({ name: "v", version: "1", validator });
    server.registerTool(
      "t",
      { inputSchema: { type: "object", properties: { a: { type: "number" } } } },
      () => "ran",
    );
    expect(compiled).toContainEqual({ type: "object", properties: { a: { type: "number" } } });
    const client = await connectClient(server);
    try {
      const result = await client.request("tools/call", { _meta: meta(), name: "t", arguments: { a: 1 } });
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: "text", text: expect.stringContaining("is odd") }],
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
