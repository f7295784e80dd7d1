// The public surface of @mcpkit/json-schema. Explicit named exports only: a test snapshots this list.

export { createJsonSchemaValidator, type JsonSchemaValidatorOptions } from "./default-validator.js";
export type { JsonSchema } from "./json-schema-type.js";
export { formatJsonSchemaErrors, type JsonSchemaError } from "./schema-error.js";
export type { CompiledJsonSchema, JsonSchemaValidator, JsonSchemaVerdict } from "./validator.js";
