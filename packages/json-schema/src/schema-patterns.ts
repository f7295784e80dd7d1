// Where a schema holds regular expressions: `pattern` values and `patternProperties` keys, in every
// subschema an evaluator would visit. The eval-free engine runs them with the backtracking `RegExp`, so
// the default validator refuses such a schema there (see `EvalFreeFallback`).

import { subschemasOf } from "./refs.js";

/**
 * The first regular expression found in `schema` (a `pattern` or a `patternProperties` key), if any. A
 * schema nested deeper than 256 levels answers as if it held one: it is not inspected further.
 */
export function firstPattern(schema: unknown, depth = 0): string | undefined {
  if (depth > 256) return "(a schema nested too deep to inspect)";
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undefined;
  const node = schema as Record<string, unknown>;
  if (typeof node.pattern === "string") return node.pattern;
  const patternProperties = node.patternProperties;
  if (typeof patternProperties === "object" && patternProperties !== null) {
    const [first] = Object.keys(patternProperties);
    if (first !== undefined) return first;
  }
  for (const child of subschemasOf(node)) {
    const found = firstPattern(child, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
