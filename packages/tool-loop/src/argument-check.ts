import {
  type CompiledJsonSchema,
  createJsonSchemaValidator,
  formatJsonSchemaErrors,
  type JsonSchemaValidator,
} from "@mcpkit/json-schema";
import type { ToolDescriptor } from "./tool-source.js";

/**
 * Checks a model's arguments against the tool's `inputSchema` before anything is sent to the server.
 * Each schema is compiled once (per schema object) with the validator it was made with.
 */
export interface ArgumentCheck {
  /**
   * Resolves with the error the model should read (`Invalid arguments for tool "x": arguments must
   * have required property 'b'. …`), or `undefined` when the arguments fit, the tool has no schema, or
   * the schema does not compile (the server then judges, as without a check).
   */
  check(
    name: string,
    tool: ToolDescriptor | undefined,
    args: Record<string, unknown>,
  ): Promise<string | undefined>;
}

/** An {@link ArgumentCheck} on `validator` (the seam of `@mcpkit/json-schema`, `createJsonSchemaValidator()` by default). */
export function createArgumentCheck(
  validator: JsonSchemaValidator = createJsonSchemaValidator(),
): ArgumentCheck {
  // A memo of compiled schemas by schema object: a re-listed tool brings a new object and is compiled anew.
  const compiled = new WeakMap<object, CompiledJsonSchema | null>();
  const compile = (schema: object): CompiledJsonSchema | null => {
    let entry = compiled.get(schema);
    if (entry === undefined) {
      try {
        entry = validator.compile(schema as Parameters<JsonSchemaValidator["compile"]>[0]);
      } catch {
        entry = null;
      }
      compiled.set(schema, entry);
    }
    return entry;
  };
  return {
    async check(name, tool, args) {
      const schema = tool?.inputSchema;
      if (typeof schema !== "object" || schema === null) return undefined;
      const schemaCheck = compile(schema);
      if (schemaCheck === null) return undefined;
      let verdict: Awaited<ReturnType<CompiledJsonSchema["validate"]>>;
      try {
        verdict = await schemaCheck.validate(args);
      } catch {
        compiled.set(schema, null);
        return undefined;
      }
      if (verdict.ok) return undefined;
      return `Invalid arguments for tool "${name}": ${formatJsonSchemaErrors(verdict.errors, "arguments")}. The tool was not run; call it again with arguments that match its input schema.`;
    },
  };
}

let shared: ArgumentCheck | undefined;
const byValidator = new WeakMap<JsonSchemaValidator, ArgumentCheck>();

/**
 * The check for `validator`, made once per validator (so each schema is compiled once): the process's
 * default check (`createJsonSchemaValidator()`) when `undefined`, none when `false`.
 */
export function argumentCheckFor(
  validator: JsonSchemaValidator | false | undefined,
): ArgumentCheck | undefined {
  if (validator === false) return undefined;
  if (validator === undefined) {
    shared ??= createArgumentCheck();
    return shared;
  }
  let check = byValidator.get(validator);
  if (check === undefined) {
    check = createArgumentCheck(validator);
    byValidator.set(validator, check);
  }
  return check;
}
