import type { JsonSchema } from "@mcpkit/protocol";
import type { Ajv, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import {
  formatIssues,
  isStandardSchema,
  type JsonSchemaConverter,
  type StandardSchemaResult,
  type StandardSchemaV1,
  standardToJsonSchema,
} from "../standard-schema.js";
import { unresolvableRef } from "./schema-refs.js";
import { analyzeSubset, type SchemaError } from "./schema-subset.js";

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

// The meta-schema ids ajv knows, as written (with or without the empty fragment): another spelling of a
// supported dialect's URI (http for 2020-12, https for draft-07) is refused by ajv's compile.
const META_ID: Record<Dialect, string> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema",
};

const AJV_OPTIONS = { strict: false, allErrors: true, logger: false as const, validateFormats: false };

/**
 * Compiles schemas for one server. A JSON Schema inside the subset that `schema-subset.ts` implements
 * (almost every tool schema) is compiled at once, synchronously, with ajv's exact verdicts and messages.
 * Any other schema goes to ajv, which is imported only then, in the background, at registration: two ajv
 * instances (2020-12 and draft-07) shared by every tool of the server. ajv compiles synchronously with no
 * schema loader, and a `$ref` outside the server's schemas fails registration: nothing is ever fetched.
 */
export class SchemaCompiler {
  private ajv2020: Promise<Ajv2020> | undefined;
  private ajv07: Promise<Ajv> | undefined;
  /** The `$id`s of the schemas handed to each ajv so far (ajv keeps them, so later `$ref`s may use them). */
  private readonly ids: Record<Dialect, Set<string>> = { "2020-12": new Set(), "draft-07": new Set() };

  constructor(private readonly converter: JsonSchemaConverter | undefined) {}

  private instance(dialect: Dialect): Promise<Ajv2020 | Ajv> {
    if (dialect === "draft-07") {
      return (this.ajv07 ??= import("ajv").then((ajv) => new ajv.Ajv(AJV_OPTIONS)));
    }
    return (this.ajv2020 ??= import("ajv/dist/2020.js").then((ajv) => new ajv.Ajv2020(AJV_OPTIONS)));
  }

  /**
   * Compiles a JSON Schema. Synchronous for a schema of the subset; otherwise the schema is compiled by
   * ajv once it has loaded, and a compile error then rejects every `check` with a TypeError naming `what`.
   * @throws TypeError naming `what` when the dialect is unsupported or the schema cannot compile.
   */
  private compileJson(schema: JsonSchema, what: string, label: string): CompiledSchema["check"] {
    const dialect = dialectOf(schema, what);
    const doesNotCompile = (detail: string, cause?: unknown) =>
      new TypeError(`${what}: the JSON Schema does not compile (${detail})`, { cause });
    const uri = schema.$schema;
    if (typeof uri === "string" && uri.replace(/#$/, "") !== META_ID[dialect]) {
      throw doesNotCompile(`no schema with key or ref "${uri}"`);
    }
    const subset = analyzeSubset(schema);
    if (subset.kind === "subset") {
      const validate = subset.validate;
      return (value) => {
        const errors = validate(value);
        return errors === null ? { ok: true, value } : { ok: false, message: formatAjvErrors(errors, label) };
      };
    }
    if (subset.kind === "invalid") throw doesNotCompile(subset.reason);
    const ref = unresolvableRef(schema, this.ids[dialect]);
    if (ref !== undefined) {
      throw doesNotCompile(
        `can't resolve reference ${ref}: only references to the server's own schemas are allowed, nothing is fetched`,
      );
    }
    let compiled: ValidateFunction | undefined;
    const ready = this.instance(dialect).then(
      (ajv) => {
        try {
          if (typeof schema.$id === "string") ajv.removeSchema(schema.$id);
          return ajv.compile(schema);
        } catch (error) {
          throw doesNotCompile(error instanceof Error ? error.message : String(error), error);
        }
      },
      (error: unknown) => {
        throw new TypeError(`${what}: the JSON Schema validator (ajv) could not be loaded`, { cause: error });
      },
    );
    // Handled here so that a schema that is never used cannot make an unhandled rejection.
    ready.then(
      (validate) => {
        compiled = validate;
      },
      () => {},
    );
    const checkWith = (validate: ValidateFunction, value: unknown): Checked =>
      validate(value) ? { ok: true, value } : { ok: false, message: formatAjvErrors(validate.errors, label) };
    return (value) =>
      compiled ? checkWith(compiled, value) : ready.then((validate) => checkWith(validate, value));
  }

  /**
   * Compiles a schema given as JSON Schema or Standard Schema. `objectRoot` requires (and, when absent,
   * adds) `type: "object"` at the root, as tool input schemas need. `check` returns a Promise only for a
   * Standard Schema that validates asynchronously or a JSON Schema left to ajv before ajv is ready.
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

/** The fields of an ajv error object that the message uses (ajv's own and the subset's errors). */
type ErrorLike = Pick<SchemaError, "instancePath" | "keyword" | "params"> & { message?: string | undefined };

/** ajv errors as one readable line: `arguments/name must be string; …`. */
export function formatAjvErrors(errors: readonly ErrorLike[] | null | undefined, root: string): string {
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
