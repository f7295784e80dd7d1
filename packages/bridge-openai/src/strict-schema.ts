import type { JsonSchema } from "@mcpkit/tool-loop";

/**
 * A JSON Schema cannot be made to follow OpenAI's strict-mode rules without changing what it accepts
 * (a free-form object, `not`, `if`/`then`/`else`, a root that is not an object).
 */
export class StrictSchemaError extends Error {
  override readonly name = "StrictSchemaError";
  /** Where in the schema, as a JSON Pointer (`""` for the root). */
  readonly path: string;

  constructor(path: string, reason: string) {
    super(`Schema cannot be strict at "${path}": ${reason}`);
    this.path = path;
  }
}

// Keywords strict mode refuses; dropping them only loosens what the model is told. The MCP server
// still validates the real schema, so a value outside them is refused there and reported back.
const UNSUPPORTED = [
  "$schema",
  "minLength",
  "maxLength",
  "patternProperties",
  "unevaluatedProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "uniqueItems",
  "dependentRequired",
  "dependentSchemas",
];
const REFUSED = ["not", "if", "then", "else"];

type Node = Record<string, unknown>;

/**
 * Rewrites a tool's JSON Schema to OpenAI's strict-mode rules (structured outputs), for tools offered
 * with `strict: true`:
 * - every object gets `additionalProperties: false` and lists every property in `required`;
 * - a property that was optional becomes nullable instead (`type: [t, "null"]`, or `anyOf` with
 *   `{ type: "null" }`), so the model sends `null` for "not given"; {@link fromStrictArguments} removes
 *   those nulls again before the call reaches the MCP server;
 * - `oneOf` becomes `anyOf`; a one-element `allOf` is merged; keywords strict mode refuses
 *   (`minLength`, `patternProperties`, `uniqueItems`, ...) are dropped.
 *
 * The input is not modified.
 * @throws {StrictSchemaError} when the schema cannot be made strict without changing what it means:
 *   a root that is not an object schema, an object with `additionalProperties` true or a schema
 *   (a free-form map), `not`/`if`/`then`/`else`, a many-element `allOf`, or a boolean schema.
 * @see https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  const root = strictify(schema, "");
  if (root.type !== "object") throw new StrictSchemaError("", "the root must be an object schema");
  return root;
}

/**
 * True when {@link toStrictJsonSchema} accepts the schema.
 */
export function canBeStrict(schema: JsonSchema): boolean {
  try {
    toStrictJsonSchema(schema);
    return true;
  } catch (error) {
    if (error instanceof StrictSchemaError) return false;
    throw error;
  }
}

function strictify(input: unknown, path: string): Node {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new StrictSchemaError(path, "boolean and non-object schemas are not allowed");
  }
  let node: Node = { ...(input as Node) };
  for (const key of REFUSED) {
    if (key in node) throw new StrictSchemaError(path, `"${key}" is not supported`);
  }
  for (const key of UNSUPPORTED) delete node[key];

  if (Array.isArray(node.allOf)) {
    if (node.allOf.length !== 1) throw new StrictSchemaError(path, "allOf with more than one schema");
    const { allOf, ...rest } = node;
    node = { ...rest, ...(allOf[0] as Node) };
    for (const key of UNSUPPORTED) delete node[key];
  }
  if (Array.isArray(node.oneOf)) {
    const { oneOf, ...rest } = node;
    node = { ...rest, anyOf: oneOf };
  }
  if (Array.isArray(node.anyOf)) {
    node.anyOf = node.anyOf.map((branch, i) => strictify(branch, `${path}/anyOf/${i}`));
  }
  for (const defsKey of ["$defs", "definitions"] as const) {
    const defs = node[defsKey];
    if (isNode(defs)) {
      node[defsKey] = Object.fromEntries(
        Object.entries(defs).map(([key, value]) => [
          key,
          strictify(value, `${path}/${defsKey}/${pointerToken(key)}`),
        ]),
      );
    }
  }

  const isObject = node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"));
  if (isObject || isNode(node.properties)) {
    if (node.type === undefined) node.type = "object";
    const extra = node.additionalProperties;
    if (extra !== undefined && extra !== false) {
      throw new StrictSchemaError(path, "objects with free-form additional properties are not allowed");
    }
    const properties = isNode(node.properties) ? node.properties : {};
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const strictProperties: Record<string, Node> = {};
    for (const [key, value] of Object.entries(properties)) {
      const child = strictify(value, `${path}/properties/${pointerToken(key)}`);
      strictProperties[key] = required.has(key) ? child : nullable(child);
    }
    node.properties = strictProperties;
    node.required = Object.keys(strictProperties);
    node.additionalProperties = false;
  }

  if (Array.isArray(node.items)) {
    node.items = node.items.map((item, i) => strictify(item, `${path}/items/${i}`));
  } else if (node.items !== undefined) {
    node.items = strictify(node.items, `${path}/items`);
  }
  if (Array.isArray(node.prefixItems)) {
    node.prefixItems = node.prefixItems.map((item, i) => strictify(item, `${path}/prefixItems/${i}`));
  }
  return node;
}

function nullable(node: Node): Node {
  if (allowsNull(node)) return node;
  if (typeof node.type === "string" && node.const === undefined) {
    const next: Node = { ...node, type: [node.type, "null"] };
    if (Array.isArray(node.enum)) next.enum = [...node.enum, null];
    return next;
  }
  if (Array.isArray(node.type) && node.const === undefined) {
    const next: Node = { ...node, type: [...node.type, "null"] };
    if (Array.isArray(node.enum)) next.enum = [...node.enum, null];
    return next;
  }
  if (Array.isArray(node.anyOf) && Object.keys(node).length === 1) {
    return { anyOf: [...node.anyOf, { type: "null" }] };
  }
  return { anyOf: [node, { type: "null" }] };
}

function allowsNull(node: unknown): boolean {
  if (!isNode(node)) return node === true;
  if (node.type === "null" || (Array.isArray(node.type) && node.type.includes("null"))) return true;
  if (Array.isArray(node.anyOf)) return node.anyOf.some(allowsNull);
  if (Array.isArray(node.oneOf)) return node.oneOf.some(allowsNull);
  return node.type === undefined &&
    node.$ref === undefined &&
    node.enum === undefined &&
    node.const === undefined
    ? Object.keys(node).every((key) => key === "description" || key === "title")
    : false;
}

/**
 * Undoes the nullable rewriting of {@link toStrictJsonSchema} on a strict model's arguments: a `null`
 * given for a property that was optional in `schema` (the original, non-strict schema) and does not
 * itself accept `null` is removed, at every depth the schema describes through `properties` and `items`.
 * Everything else is returned as it was. The input is not modified.
 */
export function fromStrictArguments<T>(schema: JsonSchema | undefined, value: T): T {
  return restore(schema, value) as T;
}

function restore(schema: unknown, value: unknown): unknown {
  if (!isNode(schema)) return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (Array.isArray(items)) return value.map((item, i) => restore(items[i], item));
    return items === undefined ? value : value.map((item) => restore(items, item));
  }
  if (typeof value !== "object" || value === null) return value;
  const properties = isNode(schema.properties) ? schema.properties : undefined;
  if (!properties) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childSchema = properties[key];
    if (child === null && !required.has(key) && childSchema !== undefined && !allowsNull(childSchema))
      continue;
    out[key] = restore(childSchema, child);
  }
  return out;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
