import type { JsonSchema } from "@mcpkit/protocol";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
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

type Dialect = "2020-12" | "draft-07";

function dialectOf(schema: JsonSchema, what: string): Dialect {
  const uri = schema.$schema;
  if (uri === undefined) return "2020-12";
  if (typeof uri === "string") {
    const bare = uri.replace(/#$/, "").replace(/^http:/, "https:");
    if (bare === "https://json-schema.org/draft/2020-12/schema") return "2020-12";
    if (bare === "https://json-schema.org/draft-07/schema") return "draft-07";
  }
  throw new TypeError(
    `${what}: unsupported JSON Schema dialect ${JSON.stringify(uri)} (2020-12 and draft-07 are supported)`,
  );
}

/**
 * Compiles schemas for one server. Two ajv instances (2020-12 and draft-07) are created on first use and
 * shared by every tool. Compilation is synchronous, so a `$ref` that is not inside the schema is never
 * fetched: it fails registration instead.
 */
export class SchemaCompiler {
  private ajv2020: Ajv2020 | undefined;
  private ajv07: Ajv | undefined;

  constructor(private readonly converter: JsonSchemaConverter | undefined) {}

  private instance(dialect: Dialect): Ajv2020 | Ajv {
    const options = { strict: false, allErrors: true, logger: false as const, validateFormats: false };
    if (dialect === "draft-07") return (this.ajv07 ??= new Ajv(options));
    return (this.ajv2020 ??= new Ajv2020(options));
  }

  /** Compiles a JSON Schema; throws a TypeError naming `what` when it cannot be compiled. */
  compileJson(schema: JsonSchema, what: string): ValidateFunction {
    const ajv = this.instance(dialectOf(schema, what));
    try {
      if (typeof schema.$id === "string") ajv.removeSchema(schema.$id);
      return ajv.compile(schema);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new TypeError(`${what}: the JSON Schema does not compile (${detail})`, { cause: error });
    }
  }

  /**
   * Compiles a schema given as JSON Schema or Standard Schema. `objectRoot` requires (and, when absent,
   * adds) `type: "object"` at the root, as tool input schemas need.
   */
  compile(
    schema: JsonSchema | StandardSchemaV1,
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
    const json = ensureObjectRoot(schema, what, objectRoot);
    const validate = this.compileJson(json, what);
    const label = io === "input" ? "arguments" : "structuredContent";
    return {
      json,
      check(value) {
        if (validate(value)) return { ok: true, value };
        return { ok: false, message: formatAjvErrors(validate.errors, label) };
      },
    };
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

/** ajv errors as one readable line: `arguments/name must be string; …`. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined, root: string): string {
  if (!errors || errors.length === 0) return `${root} are invalid`;
  return errors
    .map((e) => {
      const where = `${root}${e.instancePath}`;
      const extra =
        e.keyword === "additionalProperties"
          ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
          : "";
      return `${where} ${e.message ?? "is invalid"}${extra}`;
    })
    .join("; ");
}
