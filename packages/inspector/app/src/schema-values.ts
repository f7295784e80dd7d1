// JSON Schema → the form's starting value, and the checks run before a call is sent. Pure: tested in Node.
import type { Schema } from "./types.js";

/** A fixed choice of a field: its value and what the person reads. */
export interface Choice {
  value: unknown;
  label: string;
}

/**
 * The fixed choices of a schema: `enum` (labelled by `enumNames` when given), or a `oneOf`/`anyOf` of
 * `const`s (labelled by their `title`); `undefined` when the value is free.
 */
export function choicesOf(schema: Schema): Choice[] | undefined {
  if (schema.enum) {
    const names = schema.enumNames;
    return schema.enum.map((value, i) => ({ value, label: String(names?.[i] ?? value) }));
  }
  const options = schema.oneOf ?? schema.anyOf;
  if (options && options.length > 0 && options.every((o) => o.const !== undefined))
    return options.map((o) => ({ value: o.const, label: o.title ?? String(o.const) }));
  return undefined;
}

/** The first type a schema names (`["string","null"]` → `string`); `object` when it has properties. */
export function typeOf(schema: Schema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type) return type;
  if (schema.properties) return "object";
  const choices = choicesOf(schema);
  if (choices) return typeof choices[0]?.value === "number" ? "number" : "string";
  return "any";
}

/**
 * The value a form starts from: `default` when given; for an object its required fields and those with
 * defaults; nothing (undefined) for an optional field without a default.
 */
export function initialValue(schema: Schema, required = true): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.const !== undefined) return schema.const;
  const type = typeOf(schema);
  if (type === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const value = initialValue(child, schema.required?.includes(key) ?? false);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (!required) return undefined;
  if (type === "array") return [];
  if (type === "boolean") return false;
  const choices = choicesOf(schema);
  if (choices && choices.length > 0) return choices[0]?.value;
  return undefined;
}

/** One problem with a value: where (`a.b[0]`) and what. */
export interface Problem {
  path: string;
  message: string;
}

const join = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/** The problems of `value` against `schema` (required, type, enum, bounds, pattern, lengths). */
export function validate(schema: Schema, value: unknown, path = ""): Problem[] {
  const problems: Problem[] = [];
  const here = path || "(arguments)";
  if (value === undefined) return problems;
  const choices = choicesOf(schema);
  if (choices && !choices.some((option) => JSON.stringify(option.value) === JSON.stringify(value)))
    problems.push({
      path: here,
      message: `must be one of ${choices.map((c) => JSON.stringify(c.value)).join(", ")}`,
    });
  const type = typeOf(schema);
  const nullable = Array.isArray(schema.type) && schema.type.includes("null");
  if (value === null && nullable) return problems;
  const actual = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  const fits =
    type === "any" ||
    (type === "integer"
      ? typeof value === "number" && Number.isInteger(value)
      : type === "number"
        ? typeof value === "number"
        : actual === type);
  if (!fits) {
    problems.push({ path: here, message: `must be ${type === "integer" ? "an integer" : `a ${type}`}` });
    return problems;
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum)
      problems.push({ path: here, message: `must be ≥ ${schema.minimum}` });
    if (schema.maximum !== undefined && value > schema.maximum)
      problems.push({ path: here, message: `must be ≤ ${schema.maximum}` });
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      problems.push({ path: here, message: `must have at least ${schema.minLength} characters` });
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      problems.push({ path: here, message: `must have at most ${schema.maxLength} characters` });
    if (schema.pattern !== undefined) {
      try {
        if (!new RegExp(schema.pattern, "u").test(value))
          problems.push({ path: here, message: `must match ${schema.pattern}` });
      } catch {
        // A pattern this browser cannot compile is the server's to fix; the server checks it anyway.
      }
    }
  }
  if (type === "object" && actual === "object") {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? [])
      if (record[key] === undefined || record[key] === "")
        problems.push({ path: join(path, key), message: "is required" });
    for (const [key, child] of Object.entries(schema.properties ?? {}))
      problems.push(...validate(child, record[key], join(path, key)));
  }
  if (type === "array" && Array.isArray(value)) {
    const { minItems, maxItems } = schema;
    if (minItems !== undefined && value.length < minItems)
      problems.push({ path: here, message: `needs at least ${minItems} items` });
    if (maxItems !== undefined && value.length > maxItems)
      problems.push({ path: here, message: `takes at most ${maxItems} items` });
  }
  if (type === "array" && Array.isArray(value) && schema.items) {
    for (const [i, item] of value.entries())
      problems.push(...validate(schema.items as Schema, item, join(path, i)));
  }
  return problems;
}

/** `value` without the fields the person left empty (undefined or `""` for an optional field). */
export function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneEmpty);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    if (item !== undefined && item !== "") out[key] = pruneEmpty(item);
  return out;
}
