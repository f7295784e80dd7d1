/**
 * Whether `value` is a plain JSON object: an object that is not `null` and not an array. The one check
 * every mcpkit layer uses on decoded JSON (params, results, `_meta`, error data) before reading its keys.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
