import type { JsonSchema } from "./json-schema-type.js";
import type { JsonSchemaError } from "./schema-error.js";

/** The verdict on one value: valid, or the errors found (never empty). */
export type JsonSchemaVerdict = { ok: true } | { ok: false; errors: readonly JsonSchemaError[] };

/** The verdict for a valid value: one shared object, so a valid check allocates nothing. Internal. */
export const VALID: JsonSchemaVerdict = Object.freeze({ ok: true });

/**
 * A JSON Schema compiled once, ready to check any number of values.
 *
 * `validate` returns its verdict synchronously whenever it can. It returns a Promise only while the
 * compile is still under way in the background (a validator loaded on first need, as ajv is by
 * {@link createJsonSchemaValidator}); that Promise rejects with a TypeError when the schema turns out not
 * to compile. It never throws for a value, whatever the value (a compile error is the only rejection).
 */
export interface CompiledJsonSchema {
  validate(value: unknown): JsonSchemaVerdict | Promise<JsonSchemaVerdict>;
}

/**
 * The JSON Schema seam shared by the client (a tool's `structuredContent` against its `outputSchema`) and
 * the server (tool arguments, prompt arguments, its own structured output). One instance may compile many
 * schemas and may let them `$ref` one another by `$id`; the server and the client each keep one instance
 * for their lifetime.
 *
 * Contract for implementations:
 * - `compile` is synchronous. It throws a TypeError (its message says what is wrong with the schema, the
 *   caller adds which schema it is) for a schema it refuses: an unsupported `$schema` dialect, a keyword
 *   value no compiler accepts, a `$ref` it cannot resolve. It may also defer that discovery to `validate`.
 * - It never fetches a `$ref`: no network, no file system.
 * - Errors come in {@link JsonSchemaError}'s shape.
 *
 * The default is {@link createJsonSchemaValidator}. Supply your own (the `validator` option of
 * `createServer` and `createClient`) to use another engine, for example an eval-free one on runtimes where
 * code generation (`new Function`) is forbidden.
 */
export interface JsonSchemaValidator {
  compile(schema: JsonSchema | boolean): CompiledJsonSchema;
}
