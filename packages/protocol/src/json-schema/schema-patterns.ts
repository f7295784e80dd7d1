// Where a schema holds regular expressions: `pattern` values and `patternProperties` keys, in every
// subschema an evaluator would visit. The eval-free engine runs them with the backtracking `RegExp`, so
// the default validator refuses such a schema there (see `EvalFreeFallback`).

const SCHEMA_MAPS = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
];
const SCHEMA_LISTS = ["items", "prefixItems", "allOf", "anyOf", "oneOf"];
const SCHEMAS = [
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
];

/** The first regular expression found in `schema` (a `pattern` or a `patternProperties` key), if any. */
export function firstPattern(schema: unknown, depth = 0): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || depth > 256) return undefined;
  const node = schema as Record<string, unknown>;
  if (typeof node.pattern === "string") return node.pattern;
  const patternProperties = node.patternProperties;
  if (typeof patternProperties === "object" && patternProperties !== null) {
    const [first] = Object.keys(patternProperties);
    if (first !== undefined) return first;
  }
  const children: unknown[] = [];
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (typeof map === "object" && map !== null && !Array.isArray(map)) children.push(...Object.values(map));
  }
  for (const key of SCHEMA_LISTS) {
    const value = node[key];
    if (Array.isArray(value)) children.push(...value);
    else children.push(value);
  }
  for (const key of SCHEMAS) children.push(node[key]);
  for (const child of children) {
    const found = firstPattern(child, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
