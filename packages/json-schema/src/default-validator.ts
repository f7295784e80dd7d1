import { AjvFallback } from "./ajv-fallback.js";
import { SchemaPatterns } from "./bounded-pattern.js";
import { canGenerateCode } from "./code-generation.js";
import { type Dialect, dialectOf, isMetaIdAsAjvKnowsIt } from "./dialect.js";
import { EvalFreeFallback } from "./eval-free-fallback.js";
import type { JsonSchema } from "./json-schema-type.js";
import { unresolvableRef } from "./refs.js";
import { analyzeSubset, type SubsetValidator } from "./subset.js";
import {
  type CompiledJsonSchema,
  type JsonSchemaValidator,
  type JsonSchemaVerdict,
  VALID,
} from "./validator.js";

/** Options of {@link createJsonSchemaValidator}. */
export interface JsonSchemaValidatorOptions {
  /**
   * Whether schemas outside the built-in subset go to the eval-free engine (`@cfworker/json-schema`)
   * instead of ajv. Default: detected once, on the first such schema — eval-free exactly where `new
   * Function` is refused (Cloudflare's workerd, a page whose Content-Security-Policy forbids
   * 'unsafe-eval'), ajv everywhere else. Set it only to force one engine (tests, a policy of your own).
   */
  evalFree?: boolean;
  /**
   * Run `pattern`s (and ajv's `patternProperties`) with the native, backtracking `RegExp` instead of the
   * linear-time engine. Default `false`. Only for schemas and values the app trusts: with native patterns a
   * schema such as `{ pattern: "^(a+)+$" }` can block the event loop for seconds on a short string. It
   * also admits lookaround and backreferences, which the linear-time engine refuses.
   */
  nativePatterns?: boolean;
}

/**
 * Creates the default {@link JsonSchemaValidator}: the built-in validator for the common keywords first,
 * ajv for the rest, or an eval-free engine for the rest where code generation is forbidden.
 *
 * - A schema that uses only `type`, `properties`, `required`, `additionalProperties`, `items` (one
 *   schema), `enum`, `const`, `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum`,
 *   `minLength`/`maxLength`, `pattern`, `minItems`/`maxItems`, `true` subschemas and annotations (almost
 *   every tool schema) is compiled at once by a built-in validator with exactly ajv's verdicts and errors,
 *   and validated synchronously. ajv is not loaded for it.
 * - Any other schema goes to ajv 8 (`strict: false`, `allErrors: true`, formats not validated), imported
 *   on the first such schema: 2020-12 by default, draft-07 when `$schema` says so. Until ajv has loaded
 *   and compiled it, that schema's `validate` returns a Promise; then it is synchronous.
 * - Nothing is ever fetched. A `$ref` must name the schema itself, another schema this validator compiled
 *   earlier (by `$id`), or a JSON Schema meta-schema; any other is refused at `compile`.
 * - `compile` throws a TypeError for an unsupported dialect (anything but 2020-12 and draft-07), for a
 *   dialect URI spelled otherwise than ajv knows it, for a keyword value no compiler accepts (a `type` that
 *   names no type, a negative `minLength`, an invalid `pattern`, an empty `enum`…) and for a `$ref` as
 *   above. Any other compile error of a schema left to ajv is found when ajv compiles it, and rejects
 *   every `validate` of that schema.
 * - Patterns (`pattern`, ajv's `patternProperties`) run on a linear-time engine (re2js, imported on the
 *   first schema with a pattern; until then that schema's `validate` returns a Promise), so a peer's
 *   schema cannot block the event loop. A pattern with lookaround or a backreference, or one too large for
 *   RE2, does not compile. See {@link JsonSchemaValidatorOptions.nativePatterns}.
 *
 * - Where `new Function` is refused (detected, see {@link JsonSchemaValidatorOptions.evalFree}), the rest
 *   goes to `@cfworker/json-schema` instead, imported the same way on first need: it interprets schemas
 *   and generates no code. Same verdicts, with one difference: it checks the `format`s it knows; its
 *   errors keep ajv's shape (the innermost failing keyword each) with its own messages. It has no hook
 *   for a linear-time engine, so there a schema outside the subset with any pattern does not compile
 *   (unless `nativePatterns`).
 *
 * Each call creates an independent validator (its own ajv instances and `$id`s); creating one costs
 * nothing until a schema needs ajv.
 */
export function createJsonSchemaValidator(options: JsonSchemaValidatorOptions = {}): JsonSchemaValidator {
  return new DefaultJsonSchemaValidator(options.evalFree, options.nativePatterns === true);
}

class DefaultJsonSchemaValidator implements JsonSchemaValidator {
  private fallback: AjvFallback | EvalFreeFallback | undefined;
  /** The `$id`s of the schemas handed to each ajv so far (ajv keeps them, so later `$ref`s may use them). */
  private readonly ids: Record<Dialect, Set<string>> = { "2020-12": new Set(), "draft-07": new Set() };

  constructor(
    private readonly evalFree: boolean | undefined,
    private readonly nativePatterns: boolean,
  ) {}

  /** The engine for schemas outside the subset, chosen on the first one (the probe costs one `new Function`). */
  private get rest(): AjvFallback | EvalFreeFallback {
    return (this.fallback ??=
      (this.evalFree ?? !canGenerateCode())
        ? new EvalFreeFallback(this.nativePatterns)
        : new AjvFallback(this.nativePatterns));
  }

  compile(schema: JsonSchema | boolean): CompiledJsonSchema {
    // A boolean schema is rare enough to leave to ajv, which judges it without guessing.
    if (typeof schema === "boolean") return this.rest.compile(schema, "2020-12");
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      throw new TypeError("a JSON Schema must be an object or a boolean");
    }
    const dialect = dialectOf(schema.$schema);
    if (!isMetaIdAsAjvKnowsIt(schema.$schema, dialect)) {
      throw doesNotCompile(`no schema with key or ref "${String(schema.$schema)}"`);
    }
    const patterns = new SchemaPatterns(this.nativePatterns);
    const subset = analyzeSubset(schema, patterns.tester);
    if (subset.kind === "subset") return compiledSubset(subset.validate, patterns.ready());
    if (subset.kind === "invalid") throw doesNotCompile(subset.reason);
    const ref = unresolvableRef(schema, this.ids[dialect]);
    if (ref !== undefined) {
      throw doesNotCompile(
        `can't resolve reference ${ref}: only references to the schemas this validator compiled are allowed, nothing is fetched`,
      );
    }
    return this.rest.compile(schema, dialect);
  }
}

/** A subset validator; while its patterns wait for the engine (`ready`), `validate` returns a Promise. */
function compiledSubset(validate: SubsetValidator, ready: Promise<void> | undefined): CompiledJsonSchema {
  const verdict = (value: unknown): JsonSchemaVerdict => {
    const errors = validate(value);
    return errors === null ? VALID : { ok: false, errors };
  };
  if (!ready) return { validate: verdict };
  let settled = false;
  // Handled here so that a schema that is never used cannot make an unhandled rejection.
  ready.then(
    () => {
      settled = true;
    },
    () => {},
  );
  return { validate: (value) => (settled ? verdict(value) : ready.then(() => verdict(value))) };
}

function doesNotCompile(detail: string): TypeError {
  return new TypeError(`the JSON Schema does not compile (${detail})`);
}
