import type { OutputUnit, Validator } from "@cfworker/json-schema";
import type { Dialect } from "./dialect.js";
import type { JsonSchemaError } from "./schema-error.js";
import { firstPattern } from "./schema-patterns.js";
import { type CompiledJsonSchema, type JsonSchemaVerdict, VALID } from "./validator.js";

const DRAFT: Record<Dialect, "2020-12" | "7"> = { "2020-12": "2020-12", "draft-07": "7" };

/**
 * `@cfworker/json-schema` for the schemas the built-in subset does not cover, where code generation is
 * forbidden (workerd, a page under a strict CSP): it interprets the schema instead of compiling it to a
 * function. Imported on the first such schema only. It fetches nothing: a `$ref` resolves against the schema
 * itself and the schemas with an `$id` this fallback compiled earlier (the caller refuses any other first).
 *
 * It differs from ajv in what it reports, not in what it accepts, with one exception: the `format`s it knows
 * (`date-time`, `email`, `uri`, …) are checked, where ajv is told not to.
 */
export class EvalFreeFallback {
  private engine: Promise<typeof Validator> | undefined;
  /** The schemas with an `$id` compiled so far, per dialect, handed to every later validator. */
  private readonly named: Record<Dialect, Map<string, object>> = {
    "2020-12": new Map(),
    "draft-07": new Map(),
  };

  /**
   * `nativePatterns`: run a schema's patterns with the engine's (backtracking) `RegExp`. Without it a
   * schema with a `pattern` or `patternProperties` is refused: this engine has no linear-time hook.
   */
  constructor(private readonly nativePatterns = false) {}

  /**
   * Compiles `schema` once the engine has loaded. Until then `validate` returns a Promise; afterwards it is
   * synchronous. A schema the engine cannot use (found when a value is checked, as it interprets lazily)
   * rejects that `validate` with a TypeError.
   */
  compile(schema: object | boolean, dialect: Dialect): CompiledJsonSchema {
    const pattern = this.nativePatterns ? undefined : firstPattern(schema);
    if (pattern !== undefined) {
      throw new TypeError(
        `the JSON Schema does not compile ("pattern" ${JSON.stringify(pattern)} is refused: outside the built-in subset, where code generation is forbidden, patterns would run on the backtracking RegExp)`,
      );
    }
    const id = typeof schema === "object" ? (schema as { $id?: unknown }).$id : undefined;
    if (typeof id === "string") this.named[dialect].set(id, schema as object);
    const others = [...this.named[dialect]].filter(([, other]) => other !== schema);
    let compiled: Validator | undefined;
    const ready = (this.engine ??= import("@cfworker/json-schema").then((m) => m.Validator)).then(
      (Engine) => {
        try {
          // Copies: the engine marks every subschema object it reads with hidden properties.
          const validator = new Engine(copy(schema), DRAFT[dialect], false);
          for (const [otherId, other] of others) validator.addSchema(copy(other) as never, otherId);
          return validator;
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          throw new TypeError(`the JSON Schema does not compile (${detail})`, { cause: error });
        }
      },
      (error: unknown) => {
        throw new TypeError("the JSON Schema validator (@cfworker/json-schema) could not be loaded", {
          cause: error,
        });
      },
    );
    // Handled here so that a schema that is never used cannot make an unhandled rejection.
    ready.then(
      (validator) => {
        compiled = validator;
      },
      () => {},
    );
    return {
      validate: (value) => (compiled ? verdict(compiled, value) : ready.then((v) => verdict(v, value))),
    };
  }
}

function copy<T extends object | boolean>(schema: T): T {
  return typeof schema === "object" ? structuredClone(schema) : schema;
}

function verdict(validator: Validator, value: unknown): JsonSchemaVerdict | Promise<JsonSchemaVerdict> {
  let result: ReturnType<Validator["validate"]>;
  try {
    result = validator.validate(value);
  } catch (error) {
    // The engine reads the schema as it goes: a keyword value it cannot use throws here.
    const detail = error instanceof Error ? error.message : String(error);
    return Promise.reject(new TypeError(`the JSON Schema does not compile (${detail})`, { cause: error }));
  }
  return result.valid ? VALID : { ok: false, errors: leaves(result.errors) };
}

/**
 * The engine reports every applicator on the way to a failure (`properties`, then the property's `type`):
 * keep only the innermost of each chain, as ajv does, in ajv's shape.
 */
function leaves(units: readonly OutputUnit[]): JsonSchemaError[] {
  const errors: JsonSchemaError[] = [];
  for (const unit of units) {
    const inner = `${unit.keywordLocation}/`;
    if (units.some((other) => other !== unit && other.keywordLocation.startsWith(inner))) continue;
    const params: Record<string, unknown> = {};
    // ajv names the offending property; the formatter shows it for this keyword.
    const extra =
      unit.keyword === "additionalProperties" ? /^Property "(.*)" does not/.exec(unit.error) : null;
    if (extra) params.additionalProperty = extra[1];
    errors.push({
      instancePath: unit.instanceLocation.replace(/^#/, ""),
      schemaPath: unit.keywordLocation,
      keyword: unit.keyword,
      params,
      message: unit.error,
    });
  }
  return errors;
}
