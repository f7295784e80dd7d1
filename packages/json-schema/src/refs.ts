// Synchronous detection of a `$ref` that cannot resolve inside the schemas a validator has compiled, so
// that a network reference fails at compile even though ajv (which would refuse it too) loads later.

// Keywords whose value is a subschema, a list of subschemas, or a map of them (draft-07 and 2020-12).
const ONE = new Set([
  "additionalItems",
  "additionalProperties",
  "items",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
const MAP = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/** The URI of a `$id` or `$ref` without its fragment, resolved against `base` when it can be. */
function resolve(uri: string, base: string | undefined): string | undefined {
  try {
    const url = base === undefined ? new URL(uri) : new URL(uri, base);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

interface Walk {
  ids: Set<string>;
  refs: Array<{ ref: string; base: string | undefined }>;
}

function walk(schema: unknown, base: string | undefined, found: Walk): void {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return;
  const node = schema as Record<string, unknown>;
  let here = base;
  if (typeof node.$id === "string") {
    found.ids.add(withoutFragment(node.$id));
    const id = resolve(node.$id, base);
    if (id !== undefined) {
      found.ids.add(id);
      here = id;
    }
  }
  if (typeof node.$ref === "string") found.refs.push({ ref: node.$ref, base: here });
  for (const child of subschemasOf(node)) walk(child, here, found);
}

/** The direct subschemas of a schema object, under every keyword that holds them (draft-07 and 2020-12). */
export function subschemasOf(node: Record<string, unknown>): unknown[] {
  const children: unknown[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (ONE.has(key)) children.push(value);
    if (LIST.has(key) && Array.isArray(value)) children.push(...value);
    if (MAP.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      children.push(...Object.values(value));
    }
  }
  return children;
}

/**
 * Returns the first `$ref` of `schema` that names a document outside its own `$id`s and `known` (the ids of
 * the schemas compiled before, which ajv resolves too); when there is none, adds the schema's ids to `known`
 * and returns `undefined`. References to
 * json-schema.org (the meta-schemas ajv ships) and ones that cannot be decided here are left to ajv.
 */
export function unresolvableRef(schema: unknown, known: Set<string>): string | undefined {
  const found: Walk = { ids: new Set(), refs: [] };
  walk(schema, undefined, found);
  const ids = new Set([...known, ...found.ids]);
  for (const { ref, base } of found.refs) {
    if (ref.startsWith("#")) continue;
    const target = resolve(ref, base);
    if (target === undefined) {
      // A relative reference with no base to resolve it against can only name a known id verbatim.
      if (base === undefined && !ids.has(withoutFragment(ref))) return ref;
      continue;
    }
    if (ids.has(target) || ids.has(withoutFragment(ref))) continue;
    if (/^https?:\/\/json-schema\.org\//.test(target)) continue;
    return ref;
  }
  for (const id of found.ids) known.add(id);
  return undefined;
}
