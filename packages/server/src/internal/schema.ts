import {
  type CompiledJsonSchema,
  createJsonSchemaValidator,
  formatJsonSchemaErrors,
  type JsonSchema,
  type JsonSchemaValidator,
  type JsonSchemaVerdict,
} from "@mcpkit/json-schema";
import type { ReadonlyJsonSchema } from "../json-schema-types.js";
import {
  formatIssues,
  isStandardSchema,
  type JsonSchemaConverter,
  type StandardSchemaResult,
  type StandardSchemaV1,
  standardToJsonSchema,
} from "../standard-schema.js";

/** The outcome of checking a value against a compiled schema. */
export type Checked = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema compiled once: its JSON form for listings and a checker for values. */
export interface CompiledSchema {
  readonly json: JsonSchema;
  check(value: unknown): Checked | Promise<Checked>;
}

/**
 * Compiles schemas for one server: a Standard Schema through its own `validate`, a JSON Schema through the
 * server's {@link JsonSchemaValidator} (`createServer({ validator })`, else protocol's default: the
 * built-in subset at once and synchronously, ajv loaded in the background at registration for the rest;
 * nothing is ever fetched). One validator serves every schema of the server, so schemas may `$ref` one
 * another by `$id`.
 */
export class SchemaCompiler {
  private readonly validator: JsonSchemaValidator;

  constructor(
    private readonly converter: JsonSchemaConverter | undefined,
    validator?: JsonSchemaValidator,
  ) {
    this.validator = validator ?? createJsonSchemaValidator();
  }

  /**
   * Compiles a JSON Schema. Synchronous when the validator compiles it at once; a compile error found
   * later (by ajv, once loaded) rejects every `check` with a TypeError naming `what`.
   * @throws TypeError naming `what` when the validator refuses the schema.
   */
  private compileJson(schema: JsonSchema, what: string, label: string): CompiledSchema["check"] {
    const named = (error: unknown) =>
      new TypeError(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    let compiled: CompiledJsonSchema;
    try {
      compiled = this.validator.compile(schema);
    } catch (error) {
      throw named(error);
    }
    const checked = (verdict: JsonSchemaVerdict, value: unknown): Checked =>
      verdict.ok
        ? { ok: true, value }
        : { ok: false, message: formatJsonSchemaErrors(verdict.errors, label) };
    return (value) => {
      const verdict = compiled.validate(value);
      if (verdict instanceof Promise) {
        return verdict.then(
          (settled) => checked(settled, value),
          (error: unknown) => {
            throw named(error);
          },
        );
      }
      return checked(verdict, value);
    };
  }

  /**
   * Compiles a schema given as JSON Schema or Standard Schema. `objectRoot` requires (and, when absent,
   * adds) `type: "object"` at the root, as tool input schemas need. `check` returns a Promise only for a
   * Standard Schema that validates asynchronously or a JSON Schema the validator answers for
   * asynchronously (the default's ajv, before it is ready).
   */
  compile(
    // A readonly (`as const`) JSON Schema is the same object: nothing here writes to a schema.
    schema: JsonSchema | ReadonlyJsonSchema | StandardSchemaV1,
    io: "input" | "output",
    what: string,
    objectRoot: boolean,
  ): CompiledSchema {
    if (isStandardSchema(schema)) {
      const json = ensureObjectRoot(standardToJsonSchema(schema, io, this.converter, what), what, objectRoot);
      const validate = schema["~standard"].validate;
      return {
        json,
        check(value) {
          const result = validate(value);
          return result instanceof Promise ? result.then(fromStandard) : fromStandard(result);
        },
      };
    }
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      throw new TypeError(`${what}: expected a JSON Schema object or a Standard Schema`);
    }
    const json = ensureObjectRoot(schema as JsonSchema, what, objectRoot);
    return { json, check: this.compileJson(json, what, io === "input" ? "arguments" : "structuredContent") };
  }
}

function ensureObjectRoot(schema: JsonSchema, what: string, objectRoot: boolean): JsonSchema {
  if (!objectRoot) return schema;
  if (schema.type === undefined) return { type: "object", ...schema };
  if (schema.type !== "object") {
    throw new TypeError(`${what}: the root of a tool's inputSchema must be type "object"`);
  }
  return schema;
}

function fromStandard(result: StandardSchemaResult<unknown>): Checked {
  if (result.issues) return { ok: false, message: formatIssues(result.issues) };
  return { ok: true, value: result.value };
}
