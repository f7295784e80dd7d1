/** Where two JSON values first differ: a JSON path (`$.params.arguments.city`) and both values there. */
export interface JsonDifference {
  path: string;
  expected: unknown;
  got: unknown;
}

/** Tells whether a path (`$.result._meta`) or key is left out of a comparison. */
export type IgnorePath = (path: string, key: string) => boolean;

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The first place, in document order, where `got` differs from `expected`, or `undefined` when they are
 * equal as JSON (object key order does not matter, array order does). A key missing on one side is a
 * difference whose value there is `undefined`. `ignore` leaves paths out on both sides.
 */
export function firstDifference(
  expected: unknown,
  got: unknown,
  ignore: IgnorePath = () => false,
  path = "$",
): JsonDifference | undefined {
  const k = kind(expected);
  if (k !== kind(got)) return { path, expected, got };
  if (k === "array") {
    const a = expected as unknown[];
    const b = got as unknown[];
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length || i >= b.length) return { path: `${path}[${i}]`, expected: a[i], got: b[i] };
      const d = firstDifference(a[i], b[i], ignore, `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (k === "object") {
    const a = expected as Record<string, unknown>;
    const b = got as Record<string, unknown>;
    const keys = [...Object.keys(a), ...Object.keys(b).filter((key) => !(key in a))];
    for (const key of keys) {
      const p = childPath(path, key);
      if (ignore(p, key)) continue;
      if (a[key] === undefined && b[key] === undefined) continue;
      const d = firstDifference(a[key], b[key], ignore, p);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(expected, got) ? undefined : { path, expected, got };
}

/** How many leaves differ between two JSON values (a rough distance, to find the nearest of several). */
export function differenceCount(
  expected: unknown,
  got: unknown,
  ignore: IgnorePath = () => false,
  path = "$",
): number {
  const k = kind(expected);
  if (k !== kind(got)) return 1;
  if (k === "array") {
    const a = expected as unknown[];
    const b = got as unknown[];
    let n = Math.abs(a.length - b.length);
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      n += differenceCount(a[i], b[i], ignore, `${path}[${i}]`);
    return n;
  }
  if (k === "object") {
    const a = expected as Record<string, unknown>;
    const b = got as Record<string, unknown>;
    let n = 0;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = childPath(path, key);
      if (ignore(p, key)) continue;
      n += differenceCount(a[key], b[key], ignore, p);
    }
    return n;
  }
  return Object.is(expected, got) ? 0 : 1;
}

/** A short JSON rendering of a value for a one-line message (`undefined` for a missing one). */
export function shortJson(value: unknown, max = 80): string {
  if (value === undefined) return "(missing)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
