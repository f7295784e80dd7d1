import type { Ajv, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { loadPatternEngine, type PatternEngine } from "./bounded-pattern.js";
import type { Dialect } from "./dialect.js";
import type { JsonSchemaError } from "./schema-error.js";
import { type CompiledJsonSchema, type JsonSchemaVerdict, VALID } from "./validator.js";

const AJV_OPTIONS = { strict: false, allErrors: true, logger: false as const, validateFormats: false };

/**
 * ajv for the schemas the built-in subset does not cover: imported on the first such schema only, then
 * one instance per dialect (2020-12 and draft-07) for every schema this fallback compiles, so that those
 * schemas may `$ref` one another by `$id`. ajv is given no schema loader: it never fetches a `$ref`.
 */
export class AjvFallback {
  private ajv2020: Promise<Ajv2020> | undefined;
  private ajv07: Promise<Ajv> | undefined;

  /** `nativePatterns`: ajv's own `new RegExp` for `pattern`/`patternProperties`, else the linear-time engine. */
  constructor(private readonly nativePatterns = false) {}

  private instance(dialect: Dialect): Promise<Ajv2020 | Ajv> {
    if (dialect === "draft-07") {
      return (this.ajv07 ??= Promise.all([import("ajv"), this.options()]).then(
        ([ajv, options]) => new ajv.Ajv(options),
      ));
    }
    return (this.ajv2020 ??= Promise.all([import("ajv/dist/2020.js"), this.options()]).then(
      ([ajv, options]) => new ajv.Ajv2020(options),
    ));
  }

  private async options(): Promise<typeof AJV_OPTIONS & { code?: { regExp: AjvRegExp } }> {
    if (this.nativePatterns) return AJV_OPTIONS;
    return { ...AJV_OPTIONS, code: { regExp: ajvRegExp(await loadPatternEngine()) } };
  }

  /**
   * Compiles `schema` once ajv has loaded. Until then `validate` returns a Promise; afterwards it is
   * synchronous. A compile error (or ajv failing to load) rejects every `validate` with a TypeError.
   */
  compile(schema: object | boolean, dialect: Dialect): CompiledJsonSchema {
    const id = typeof schema === "object" ? (schema as { $id?: unknown }).$id : undefined;
    let compiled: ValidateFunction | undefined;
    const ready = this.instance(dialect).then(
      (ajv) => {
        try {
          // A schema registered again under the same `$id` replaces the first.
          if (typeof id === "string") ajv.removeSchema(id);
          return ajv.compile(schema);
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          throw new TypeError(`the JSON Schema does not compile (${detail})`, { cause: error });
        } finally {
          // ajv caches every schema object it compiles, for ever. One without an `$id` can be named by no
          // later `$ref`, so drop it: a client compiles fresh schema objects on every tools/list.
          if (typeof id !== "string" && typeof schema === "object") ajv.removeSchema(schema);
        }
      },
      (error: unknown) => {
        throw new TypeError("the JSON Schema validator (ajv) could not be loaded", { cause: error });
      },
    );
    // Handled here so that a schema that is never used cannot make an unhandled rejection.
    ready.then(
      (validate) => {
        compiled = validate;
      },
      () => {},
    );
    return {
      validate: (value) => (compiled ? verdict(compiled, value) : ready.then((v) => verdict(v, value))),
    };
  }
}

type AjvRegExp = ((pattern: string, flags: string) => { test(text: string): boolean }) & { code: string };

/** ajv's `code.regExp` hook on the linear-time engine; a refusal throws, so the schema does not compile. */
function ajvRegExp(engine: PatternEngine): AjvRegExp {
  // `code` names the engine in ajv's standalone output only, which mcpkit never generates.
  return Object.assign((pattern: string) => engine(pattern), { code: "boundedPattern" });
}

function verdict(validate: ValidateFunction, value: unknown): JsonSchemaVerdict {
  if (validate(value)) return VALID;
  // ajv builds a new array per failing call, and fills `message` (its `messages` option is on).
  return { ok: false, errors: (validate.errors ?? []) as JsonSchemaError[] };
}
