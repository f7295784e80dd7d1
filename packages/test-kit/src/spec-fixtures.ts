// Test-only helpers: locate the spec's JSON Schemas and examples vendored in <repo root>/spec (see its
// README for where they come from) and compile validators for them. Only tests import this.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

function findRepoRoot(start: string): string | undefined {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, "pnpm-workspace.yaml"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The folder holding the vendored spec files: `<repo root>/spec`. Throws a clear error when the repo
 * root or a fixture cannot be found, so a missing fixture fails the test instead of skipping it.
 */
export function specDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = findRepoRoot(here);
  if (root === undefined) {
    throw new Error(`Cannot find the repository root (a folder with pnpm-workspace.yaml) above ${here}`);
  }
  const dir = path.join(root, "spec");
  if (!existsSync(path.join(dir, "2026-07-28", "schema.json"))) {
    throw new Error(
      `The MCP spec fixtures are missing: expected ${dir}/2026-07-28/schema.json (vendored in the repository).`,
    );
  }
  return dir;
}

/** The schema files the tests use, by name. */
export type SchemaName = "2025-06-18" | "2025-11-25" | "2026-07-28" | "ext-tasks";

const cache = new Map<string, ValidateFunction>();
let ajv: Ajv2020 | undefined;

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

export function loadSchema(name: SchemaName): {
  $defs?: Record<string, unknown>;
  definitions?: Record<string, unknown>;
} {
  return readJson(path.join(specDir(), name, "schema.json")) as {
    $defs?: Record<string, unknown>;
    definitions?: Record<string, unknown>;
  };
}

function getAjv(): Ajv2020 {
  if (ajv !== undefined) return ajv;
  const a = new Ajv2020({ strict: false, allErrors: true });
  a.addFormat("byte", (s: string) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0);
  a.addFormat("uri", (s: string) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s));
  a.addFormat("uri-template", true);
  for (const name of ["2025-06-18", "2025-11-25", "2026-07-28", "ext-tasks"] as const) {
    const schema = loadSchema(name) as Record<string, unknown>;
    // Key every schema by our own name (ext-tasks has an $id). 2025-06-18 declares draft-07, whose
    // meta-schema Ajv2020 lacks; the keywords it uses mean the same in 2020-12, so drop the declaration.
    const { $id: _id, ...rest } = schema;
    if (name === "2025-06-18") delete rest.$schema;
    a.addSchema(rest, name);
  }
  ajv = a;
  return a;
}

/** A validator for one definition of one schema file (`$defs` or, in 2025-06-18, `definitions`). */
export function validatorFor(name: SchemaName, definition: string): ValidateFunction {
  const key = `${name}#${definition}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const schema = loadSchema(name);
  const section = schema.$defs !== undefined ? "$defs" : "definitions";
  if (!schema[section]?.[definition]) throw new Error(`${name} has no definition ${definition}`);
  const validate = getAjv().getSchema(`${name}#/${section}/${definition}`);
  if (validate === undefined) throw new Error(`Cannot compile ${name} ${definition}`);
  cache.set(key, validate);
  return validate;
}

/** Validates `value` against a definition; returns ajv's error text, or `""` when valid. */
export function schemaErrors(name: SchemaName, definition: string, value: unknown): string {
  const validate = validatorFor(name, definition);
  return validate(value) ? "" : JSON.stringify(validate.errors, null, 1);
}

/** One example file of the 2026-07-28 schema, parsed: `examples/<definition>/<file>`. */
export function example2026(definition: string, file: string): Record<string, any> {
  const full = path.join(specDir(), "2026-07-28", "examples", definition, file);
  if (!existsSync(full)) throw new Error(`The spec example ${full} is missing`);
  return readJson(full) as Record<string, any>;
}

/** Every example of the 2026-07-28 schema: the folder name is the definition it illustrates. */
export function examples2026(): { definition: string; file: string; value: unknown }[] {
  const root = path.join(specDir(), "2026-07-28", "examples");
  const out: { definition: string; file: string; value: unknown }[] = [];
  for (const definition of readdirSync(root).sort()) {
    for (const file of readdirSync(path.join(root, definition)).sort()) {
      if (!file.endsWith(".json")) continue;
      out.push({ definition, file, value: readJson(path.join(root, definition, file)) });
    }
  }
  return out;
}
