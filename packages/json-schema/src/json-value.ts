// What the built-in subset knows of JSON values: which values are JSON, string length as ajv counts it,
// and deep equality as ajv compares `const` and `enum`.

/** Whether `value` is a JSON value: no NaN, no Infinity, plain objects only. */
export function isJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (isPlainObject(value)) return Object.values(value).every(isJson);
  return false;
}

/** The length in Unicode code points, a lone surrogate counting as one (as ajv's `ucs2length`). */
export function codePoints(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    length++;
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      if ((text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/** A non-array object whose prototype is `Object.prototype` or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Deep equality with fast-deep-equal's semantics, which ajv uses for `const` and `enum`, down to the
 * order of comparisons (arrays and keys from the last): an own `toString` or `valueOf` that is not a
 * function throws at the same point as in ajv.
 */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === "object" && typeof b === "object") {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      const other = b as unknown[];
      if (a.length !== other.length) return false;
      for (let i = a.length - 1; i >= 0; i--) if (!equal(a[i], other[i])) return false;
      return true;
    }
    if (a.constructor === RegExp) {
      return (a as RegExp).source === (b as RegExp).source && (a as RegExp).flags === (b as RegExp).flags;
    }
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (let i = keys.length - 1; i >= 0; i--) if (!Object.hasOwn(b, keys[i] as string)) return false;
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
    }
    return true;
  }
  return Number.isNaN(a) && Number.isNaN(b);
}
