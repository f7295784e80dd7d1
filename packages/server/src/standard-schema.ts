import type {
  InferOutput,
  JsonSchema,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from "@mcpkit/protocol";

// The one Standard Schema type is protocol's; the server exports it under the same names.
export type { InferOutput, StandardSchemaIssue, StandardSchemaResult, StandardSchemaV1 };

/**
 * Converts a Standard Schema to a JSON Schema, for `tools/list`. Give one to `createServer` for a schema
 * library that does not implement Standard JSON Schema.
 */
export type JsonSchemaConverter = (
  schema: StandardSchemaV1,
  io: "input" | "output",
) => JsonSchema | undefined;

/** Whether `value` is a Standard Schema (has a `~standard` object with a `validate` function). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const std = (value as { "~standard"?: unknown })["~standard"];
  return (
    typeof std === "object" && std !== null && typeof (std as { validate?: unknown }).validate === "function"
  );
}

const TARGETS = ["draft-2020-12", "draft-07"] as const;

/**
 * The JSON Schema of a Standard Schema: the user's converter first, then the schema's own Standard JSON
 * Schema (2020-12 preferred, draft-07 accepted). Throws when neither gives one.
 */
export function standardToJsonSchema(
  schema: StandardSchemaV1,
  io: "input" | "output",
  converter: JsonSchemaConverter | undefined,
  what: string,
): JsonSchema {
  const fromUser = converter?.(schema, io);
  if (fromUser !== undefined) return fromUser;
  const std = schema["~standard"];
  const jsonSchema = std.jsonSchema;
  if (jsonSchema !== undefined) {
    let lastError: unknown;
    for (const target of TARGETS) {
      try {
        const out = jsonSchema[io]({ target });
        if (typeof out === "object" && out !== null) return out as JsonSchema;
      } catch (error) {
        lastError = error;
      }
    }
    throw new TypeError(`${what}: the ${std.vendor} schema could not be converted to JSON Schema`, {
      cause: lastError,
    });
  }
  if (std.vendor === "zod") {
    // zod converts itself from 4.2 on; an older zod is the usual cause, and its version says so.
    throw new TypeError(
      `${what}: zod ≥ 4.2 is needed to convert a zod schema to JSON Schema, you have zod ${zodVersion(schema)}; ` +
        "upgrade (npm i zod@^4.2), or pass createServer({ toJsonSchema }) with a converter " +
        "(zod 3: zod-to-json-schema), or give a JSON Schema object",
    );
  }
  throw new TypeError(
    `${what}: the ${std.vendor} schema has no Standard JSON Schema (~standard.jsonSchema); ` +
      "pass createServer({ toJsonSchema }) to convert it, or give a JSON Schema object",
  );
}

/**
 * The version of the zod a schema comes from, as far as the schema shows it: zod 4 records
 * `_zod.version`; zod 3 schemas have only `_def`.
 */
function zodVersion(schema: StandardSchemaV1): string {
  const internals = (schema as { _zod?: { version?: { major?: unknown; minor?: unknown } } })._zod;
  const version = internals?.version;
  if (typeof version?.major === "number") return `${version.major}.${String(version.minor ?? "x")}`;
  return "_def" in schema ? "3.x" : "older than 4.2";
}

/** Formats Standard Schema issues as one line per issue: `path: message`. */
export function formatIssues(issues: ReadonlyArray<StandardSchemaIssue>): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((p) => (typeof p === "object" && p !== null ? String(p.key) : String(p)))
        .join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}
