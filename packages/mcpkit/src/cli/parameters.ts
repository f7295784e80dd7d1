import { isObject } from "@mcpkit/jsonrpc";

/** A JSON Schema, as far as a one-line summary reads it. */
interface SchemaLike {
  type?: unknown;
  enum?: unknown;
  const?: unknown;
  items?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  properties?: unknown;
  required?: unknown;
}

/**
 * A tool's parameters in one line, as `mcpkit tools` shows them: `(city: string, days?: integer,
 * unit?: "C"|"F")` — each property of the input schema with its type, `?` when it is not required;
 * empty for a tool that takes nothing (as `mcpkit prompts` shows a prompt without arguments).
 */
export function parameterList(inputSchema: unknown): string {
  const schema = (isObject(inputSchema) ? inputSchema : {}) as SchemaLike;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const params = Object.entries(properties).map(
    ([name, property]) => `${name}${required.has(name) ? "" : "?"}: ${typeName(property)}`,
  );
  return params.length === 0 ? "" : `(${params.join(", ")})`;
}

/** A short type for a property schema: `string`, `integer[]`, `"C"|"F"`, `string|null`, `any`. */
export function typeName(schema: unknown, depth = 0): string {
  if (!isObject(schema) || depth > 2) return "any";
  const s = schema as SchemaLike;
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join("|");
  if (s.const !== undefined) return JSON.stringify(s.const);
  const variants = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (variants) return variants.map((v) => typeName(v, depth + 1)).join("|");
  const types = Array.isArray(s.type) ? s.type : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return "any";
  return types
    .map((t) => (t === "array" && isObject(s.items) ? `${wrap(typeName(s.items, depth + 1))}[]` : String(t)))
    .join("|");
}

function wrap(type: string): string {
  return type.includes("|") ? `(${type})` : type;
}
