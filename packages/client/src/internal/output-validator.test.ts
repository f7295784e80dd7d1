import type { JsonSchemaValidator } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { OutputValidationError } from "../errors.js";
import { OutputValidators } from "./output-validator.js";

/** A validator that records what it compiled; values with `bad` fail, `late` makes the compile fail late. */
function recordingValidator() {
  const compiled: unknown[] = [];
  const validator: JsonSchemaValidator = {
    compile(schema) {
      compiled.push(schema);
      if (typeof schema === "object" && schema.refuse) throw new TypeError("this engine refuses it");
      return {
        validate(value) {
          if (typeof schema === "object" && schema.late) return Promise.reject(new TypeError("late error"));
          if (typeof value === "object" && value !== null && "bad" in value) {
            return {
              ok: false,
              errors: [
                { instancePath: "/bad", schemaPath: "", keyword: "custom", params: {}, message: "is bad" },
              ],
            };
          }
          return { ok: true };
        },
      };
    },
  };
  return { validator, compiled };
}

const rejection = (promise: Promise<void>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("OutputValidators", () => {
  it("[client:validator-option] compiles with the validator it is given, once per tool and list", async () => {
    const { validator, compiled } = recordingValidator();
    const validators = new OutputValidators(validator);
    const schema = { type: "object" };
    validators.reset([{ name: "t", outputSchema: schema }, { name: "free" }]);
    expect(validators.has("t")).toBe(true);
    expect(validators.has("free")).toBe(false);
    await validators.check("t", {});
    await validators.check("t", {});
    await validators.check("free", { bad: 1 });
    expect(compiled).toEqual([schema]);
    const error = await rejection(validators.check("t", { bad: 1 }));
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toMatchObject({
      tool: "t",
      message: 'The structuredContent of tool "t" does not match its outputSchema: /bad is bad',
      errors: [{ instancePath: "/bad", message: "is bad" }],
    });
    validators.reset([{ name: "t", outputSchema: schema }]);
    await validators.check("t", {});
    expect(compiled).toEqual([schema, schema]);
  });

  it("[client:validator-option] reports a schema its validator refuses, at compile or later, as unusable", async () => {
    const { validator } = recordingValidator();
    const validators = new OutputValidators(validator);
    validators.reset([
      { name: "refused", outputSchema: { refuse: true } },
      { name: "late", outputSchema: { late: true } },
    ]);
    await expect(validators.check("refused", {})).rejects.toThrow(
      new OutputValidationError(
        "refused",
        'The outputSchema of tool "refused" cannot be used: this engine refuses it',
      ),
    );
    await expect(validators.check("late", {})).rejects.toThrow(
      'The outputSchema of tool "late" cannot be used: late error',
    );
  });

  it("[client:validator-default] without one, uses protocol's default validator (draft-07 read as draft-07)", async () => {
    const validators = new OutputValidators();
    validators.reset([
      {
        name: "d7",
        outputSchema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { t: { items: [{ type: "string" }], additionalItems: false } },
        },
      },
    ]);
    await expect(validators.check("d7", { t: ["x"] })).resolves.toBeUndefined();
    const error = await rejection(validators.check("d7", { t: ["x", 1] }));
    expect(error).toMatchObject({
      message:
        'The structuredContent of tool "d7" does not match its outputSchema: /t must NOT have more than 1 items',
    });
  });

  it("judges a schema in a dialect it does not speak by 2020-12 rules instead of refusing the tool", async () => {
    const validators = new OutputValidators();
    const draft04 = {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    };
    validators.reset([{ name: "old", outputSchema: draft04 }]);
    await expect(validators.check("old", { n: 1 })).resolves.toBeUndefined();
    await expect(validators.check("old", { n: "x" })).rejects.toThrow(
      /does not match its outputSchema: \/n must be number/,
    );
  });
});
