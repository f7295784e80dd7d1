// A validator for a conservative subset of JSON Schema that gives exactly ajv's verdicts and error objects
// (ajv 8 with `allErrors: true`, `strict: false`, formats not validated), so that most tool schemas never
// load ajv. Anything outside the subset is left to ajv; nothing here guesses.
//
// Order of errors, as ajv generates its code: a type error first when the schema has no keyword group for
// its single type (or lists several types); then the untyped keywords (const, enum); then the number,
// string, array and object groups, each guarded by its type, with the single type's error in the `else`
// of its own group. Within a group keywords run in ajv's vocabulary order.

import { codePoints, equal, isJson, isPlainObject } from "./json-value.js";
import type { JsonSchemaError } from "./schema-error.js";

/** Validates a value: `null` when it is valid, else ajv's errors in ajv's order. */
export type SubsetValidator = (value: unknown) => JsonSchemaError[] | null;

/**
 * What {@link analyzeSubset} found: a validator for a schema inside the subset, a schema ajv would refuse
 * (`invalid`, with the reason), or one only ajv can judge (`outside`).
 */
export type SubsetAnalysis =
  | { kind: "subset"; validate: SubsetValidator }
  | { kind: "invalid"; reason: string }
  | { kind: "outside" };

type Check = (data: unknown, path: string, errors: JsonSchemaError[]) => void;

/**
 * Makes the test for one `pattern` (a valid `u`-mode ECMAScript regular expression): the engine is the
 * caller's choice (the default validator's is linear-time). Throws an Error, whose message says why, to
 * refuse the pattern: the schema is then `invalid`.
 */
export type PatternTester = (pattern: string) => (text: string) => boolean;

const TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
const STRING_ANNOTATIONS = new Set(["title", "description", "$comment", "format"]);
const BOOLEAN_ANNOTATIONS = new Set(["deprecated", "readOnly", "writeOnly"]);

/** Thrown inside the analysis: the schema is outside the subset (`reason` undefined) or invalid. */
class Leave {
  constructor(readonly reason?: string) {}
}

const outside = (): never => {
  throw new Leave();
};
const invalid = (path: string, what: string): never => {
  throw new Leave(`${path}: ${what}`);
};

/**
 * Compiles `schema` when it is inside the subset. The root may carry `$schema` (the caller checks its
 * value); any keyword outside the subset, anywhere, makes the answer `outside`. A value that ajv's
 * meta-schema rejects for a keyword of the subset (a `type` that names no type, a negative `minLength`, an
 * invalid `pattern`…) is `invalid`: ajv would fail to compile the schema too.
 */
export function analyzeSubset(schema: Record<string, unknown>, pattern: PatternTester): SubsetAnalysis {
  try {
    const check = compileNode(schema, "#", true, pattern);
    return { kind: "subset", validate: check ? run(check) : () => null };
  } catch (error) {
    if (error instanceof Leave) {
      return error.reason === undefined ? { kind: "outside" } : { kind: "invalid", reason: error.reason };
    }
    throw error;
  }
}

function run(check: Check): SubsetValidator {
  return (value) => {
    const errors: JsonSchemaError[] = [];
    check(value, "", errors);
    return errors.length === 0 ? null : errors;
  };
}

/** A subschema: `true` or an object of the subset. `null` when it can never fail. */
function compileSub(schema: unknown, schemaPath: string, pt: PatternTester): Check | null {
  if (schema === true) return null;
  if (isPlainObject(schema)) return compileNode(schema, schemaPath, false, pt);
  if (schema === false) return outside();
  return invalid(schemaPath, "a subschema must be an object or a boolean");
}

function compileNode(
  schema: Record<string, unknown>,
  sp: string,
  root: boolean,
  pt: PatternTester,
): Check | null {
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (value === undefined) outside();
    if (STRING_ANNOTATIONS.has(key)) {
      if (typeof value !== "string") invalid(sp, `"${key}" must be a string`);
    } else if (BOOLEAN_ANNOTATIONS.has(key)) {
      if (typeof value !== "boolean") outside();
    } else if (key === "examples") {
      if (!Array.isArray(value)) outside();
    } else if (key === "$schema") {
      if (!root) outside();
    } else if (!KEYWORDS.has(key) && key !== "default" && !key.startsWith("x-")) {
      outside();
    }
  }

  const types = typesOf(schema.type, sp);
  const untyped: Check[] = [];
  const groups: Record<Group, Check[]> = { number: [], string: [], array: [], object: [] };
  const used: Record<Group, boolean> = { number: false, string: false, array: false, object: false };
  // `format` is a (disabled) keyword of the number and string groups: it decides where a type error goes.
  if (schema.format !== undefined) used.number = used.string = true;

  if (schema.const !== undefined) untyped.push(constCheck(jsonValue(schema.const), sp));
  if (schema.enum !== undefined) untyped.push(enumCheck(schema.enum, sp));

  for (const keyword of ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"] as const) {
    if (schema[keyword] === undefined) continue;
    used.number = true;
    groups.number.push(limitCheck(keyword, schema[keyword], sp));
  }
  for (const keyword of ["maxLength", "minLength"] as const) {
    if (schema[keyword] === undefined) continue;
    used.string = true;
    groups.string.push(lengthCheck(keyword, count(schema[keyword], sp, keyword), sp));
  }
  if (schema.pattern !== undefined) {
    used.string = true;
    groups.string.push(patternCheck(schema.pattern, sp, pt));
  }
  for (const keyword of ["maxItems", "minItems"] as const) {
    if (schema[keyword] === undefined) continue;
    used.array = true;
    groups.array.push(itemCountCheck(keyword, count(schema[keyword], sp, keyword), sp));
  }
  if (schema.items !== undefined) {
    used.array = true;
    if (Array.isArray(schema.items)) outside();
    const items = compileSub(schema.items, `${sp}/items`, pt);
    if (items) groups.array.push(itemsCheck(items));
  }
  if (schema.required !== undefined) {
    used.object = true;
    const required = requiredCheck(schema.required, sp);
    if (required) groups.object.push(required);
  }
  let properties: Record<string, unknown> | undefined;
  if (schema.properties !== undefined) {
    if (!isPlainObject(schema.properties)) invalid(sp, `"properties" must be an object`);
    properties = schema.properties as Record<string, unknown>;
    // ajv skips a property named __proto__; rather than copy that, leave such schemas to it.
    if (Object.hasOwn(properties, "__proto__")) outside();
  }
  if (schema.additionalProperties !== undefined) {
    used.object = true;
    const additional = additionalCheck(schema.additionalProperties, properties, sp, pt);
    if (additional) groups.object.push(additional);
  }
  if (properties) {
    used.object = true;
    const props = propertiesCheck(properties, sp, pt);
    if (props) groups.object.push(props);
  }

  const checks: Check[] = [];
  const single = types.length === 1 ? types[0] : undefined;
  const typeError = types.length > 0 ? typeCheck(schema.type as string | string[], types, sp) : undefined;
  if (typeError && !(single !== undefined && isGroup(single) && used[single])) checks.push(typeError);
  checks.push(...untyped);
  for (const group of GROUPS) {
    if (!used[group]) continue;
    checks.push(groupCheck(group, groups[group], single === group ? typeError : undefined));
  }
  if (checks.length === 0) return null;
  if (checks.length === 1) return checks[0] as Check;
  return (data, path, errors) => {
    for (const check of checks) check(data, path, errors);
  };
}

const KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
]);

type Group = "number" | "string" | "array" | "object";
const GROUPS: readonly Group[] = ["number", "string", "array", "object"];
const isGroup = (type: string): type is Group => (GROUPS as readonly string[]).includes(type);

function typesOf(type: unknown, sp: string): string[] {
  if (type === undefined) return [];
  if (typeof type === "string") {
    if (!TYPES.has(type)) invalid(sp, `"type" ${JSON.stringify(type)} names no JSON type`);
    return [type];
  }
  if (!Array.isArray(type) || type.length === 0)
    return invalid(sp, `"type" must be a type or a list of types`);
  for (const t of type) {
    if (typeof t !== "string" || !TYPES.has(t)) invalid(sp, `"type" ${JSON.stringify(t)} names no JSON type`);
  }
  if (new Set(type).size !== type.length) invalid(sp, `"type" lists a type twice`);
  return type as string[];
}

function count(value: unknown, sp: string, keyword: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    return invalid(sp, `"${keyword}" must be a non-negative integer`);
  }
  return value + 0;
}

/** A JSON value (no NaN, no Infinity, plain objects): `const`/`enum` then compare as ajv does. */
function jsonValue(value: unknown): unknown {
  if (!isJson(value)) outside();
  return value;
}

function typeCheck(schemaType: string | string[], types: string[], sp: string): Check {
  const schemaPath = `${sp}/type`;
  const message = `must be ${schemaType}`;
  const matches = types.length === 1 ? typeTest(types[0] as string) : anyType(types.map(typeTest));
  return (data, path, errors) => {
    if (!matches(data)) {
      errors.push({ instancePath: path, schemaPath, keyword: "type", params: { type: schemaType }, message });
    }
  };
}

function anyType(tests: Array<(data: unknown) => boolean>): (data: unknown) => boolean {
  return (data) => tests.some((test) => test(data));
}

// ajv's own type tests (strictNumbers off): NaN and Infinity are numbers, and so integers when whole.
function typeTest(type: string): (data: unknown) => boolean {
  switch (type) {
    case "null":
      return (data) => data === null;
    case "array":
      return Array.isArray;
    case "object":
      return isObjectData;
    case "integer":
      return (data) => typeof data === "number" && !(data % 1) && !Number.isNaN(data);
    default:
      return (data) => typeof data === type;
  }
}

function isObjectData(data: unknown): data is Record<string, unknown> {
  return !!data && typeof data === "object" && !Array.isArray(data);
}

function groupCheck(group: Group, checks: Check[], typeError: Check | undefined): Check {
  const test = group === "object" ? isObjectData : typeTest(group);
  return (data, path, errors) => {
    if (test(data)) {
      for (const check of checks) check(data, path, errors);
    } else if (typeError) {
      typeError(data, path, errors);
    }
  };
}

function constCheck(allowed: unknown, sp: string): Check {
  const schemaPath = `${sp}/const`;
  const same =
    allowed !== null && typeof allowed === "object"
      ? (d: unknown) => equal(d, allowed)
      : (d: unknown) => d === allowed;
  return (data, path, errors) => {
    if (!same(data)) {
      // ajv writes a primitive into its generated code, where -0 becomes 0.
      const params = { allowedValue: typeof allowed === "number" ? allowed + 0 : allowed };
      errors.push({
        instancePath: path,
        schemaPath,
        keyword: "const",
        params,
        message: "must be equal to constant",
      });
    }
  };
}

function enumCheck(values: unknown, sp: string): Check {
  if (!Array.isArray(values)) return invalid(sp, `"enum" must be an array`);
  if (values.length === 0) return invalid(sp, `"enum" must not be empty`);
  jsonValue(values);
  // draft-07's meta-schema wants unique enum values, 2020-12's does not: ajv decides.
  let unique: boolean;
  try {
    unique = values.every((v, i) => values.findIndex((w) => equal(v, w)) === i);
  } catch {
    unique = false; // an own `toString` that is not a function: ajv's own check would throw
  }
  if (!unique) outside();
  const schemaPath = `${sp}/enum`;
  const message = "must be equal to one of the allowed values";
  return (data, path, errors) => {
    for (const v of values) {
      if (v !== null && typeof v === "object" ? equal(data, v) : data === v) return;
    }
    errors.push({
      instancePath: path,
      schemaPath,
      keyword: "enum",
      params: { allowedValues: values },
      message,
    });
  };
}

const COMPARISON = { maximum: "<=", minimum: ">=", exclusiveMaximum: "<", exclusiveMinimum: ">" } as const;

function limitCheck(keyword: keyof typeof COMPARISON, value: unknown, sp: string): Check {
  if (typeof value !== "number") return invalid(sp, `"${keyword}" must be a number`);
  if (!Number.isFinite(value)) outside();
  const limit = value + 0; // ajv prints -0 as 0
  const comparison = COMPARISON[keyword];
  const schemaPath = `${sp}/${keyword}`;
  const message = `must be ${comparison} ${limit}`;
  const fails: (n: number) => boolean =
    keyword === "maximum"
      ? (n) => n > limit
      : keyword === "minimum"
        ? (n) => n < limit
        : keyword === "exclusiveMaximum"
          ? (n) => n >= limit
          : (n) => n <= limit;
  return (data, path, errors) => {
    const n = data as number;
    if (fails(n) || Number.isNaN(n)) {
      errors.push({ instancePath: path, schemaPath, keyword, params: { comparison, limit }, message });
    }
  };
}

function lengthCheck(keyword: "maxLength" | "minLength", limit: number, sp: string): Check {
  const schemaPath = `${sp}/${keyword}`;
  const max = keyword === "maxLength";
  const message = `must NOT have ${max ? "more" : "fewer"} than ${limit} characters`;
  return (data, path, errors) => {
    const length = codePoints(data as string);
    if (max ? length > limit : length < limit) {
      errors.push({ instancePath: path, schemaPath, keyword, params: { limit }, message });
    }
  };
}

function patternCheck(pattern: unknown, sp: string, pt: PatternTester): Check {
  if (typeof pattern !== "string") return invalid(sp, `"pattern" must be a string`);
  let test: (text: string) => boolean;
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    return invalid(sp, `"pattern" is not a valid regular expression (${(error as Error).message})`);
  }
  try {
    test = pt(pattern);
  } catch (error) {
    return invalid(sp, (error as Error).message);
  }
  const schemaPath = `${sp}/pattern`;
  const message = `must match pattern "${pattern}"`;
  return (data, path, errors) => {
    if (!test(data as string)) {
      errors.push({ instancePath: path, schemaPath, keyword: "pattern", params: { pattern }, message });
    }
  };
}

function itemCountCheck(keyword: "maxItems" | "minItems", limit: number, sp: string): Check {
  const schemaPath = `${sp}/${keyword}`;
  const max = keyword === "maxItems";
  const message = `must NOT have ${max ? "more" : "fewer"} than ${limit} items`;
  return (data, path, errors) => {
    const length = (data as unknown[]).length;
    if (max ? length > limit : length < limit) {
      errors.push({ instancePath: path, schemaPath, keyword, params: { limit }, message });
    }
  };
}

function itemsCheck(items: Check): Check {
  return (data, path, errors) => {
    const array = data as unknown[];
    for (let i = 0; i < array.length; i++) items(array[i], `${path}/${i}`, errors);
  };
}

function requiredCheck(required: unknown, sp: string): Check | null {
  if (!Array.isArray(required) || !required.every((p) => typeof p === "string")) {
    return invalid(sp, `"required" must be an array of strings`);
  }
  if (new Set(required).size !== required.length) invalid(sp, `"required" lists a property twice`);
  if (required.length === 0) return null;
  const schemaPath = `${sp}/required`;
  const names = required as string[];
  return (data, path, errors) => {
    const object = data as Record<string, unknown>;
    for (const missingProperty of names) {
      // ajv tests `data[prop] === undefined`, so an inherited property (toString) counts as present.
      if (object[missingProperty] === undefined) {
        errors.push({
          instancePath: path,
          schemaPath,
          keyword: "required",
          params: { missingProperty },
          message: `must have required property '${missingProperty}'`,
        });
      }
    }
  };
}

function additionalCheck(
  additional: unknown,
  properties: Record<string, unknown> | undefined,
  sp: string,
  pt: PatternTester,
): Check | null {
  const declared = new Set(properties ? Object.keys(properties) : []);
  const schemaPath = `${sp}/additionalProperties`;
  if (additional === false) {
    const message = "must NOT have additional properties";
    return (data, path, errors) => {
      // for…in, as ajv: enumerable inherited keys count too.
      for (const key in data as object) {
        if (declared.has(key)) continue;
        const params = { additionalProperty: key };
        errors.push({ instancePath: path, schemaPath, keyword: "additionalProperties", params, message });
      }
    };
  }
  const check = compileSub(additional, schemaPath, pt);
  if (!check) return null;
  return (data, path, errors) => {
    const object = data as Record<string, unknown>;
    for (const key in object) {
      if (!declared.has(key)) check(object[key], `${path}/${pointer(key)}`, errors);
    }
  };
}

function propertiesCheck(properties: Record<string, unknown>, sp: string, pt: PatternTester): Check | null {
  const entries: Array<{ name: string; segment: string; check: Check }> = [];
  for (const name of Object.keys(properties)) {
    const check = compileSub(properties[name], `${sp}/properties/${encodeURIComponent(pointer(name))}`, pt);
    if (check) entries.push({ name, segment: `/${pointer(name)}`, check });
  }
  if (entries.length === 0) return null;
  return (data, path, errors) => {
    const object = data as Record<string, unknown>;
    for (const entry of entries) {
      const value = object[entry.name];
      if (value !== undefined) entry.check(value, path + entry.segment, errors);
    }
  };
}

/** A JSON Pointer segment. */
function pointer(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
