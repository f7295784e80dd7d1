import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The package is built as it ships (tsup, ESM, ajv left external) from the current sources into a private
// directory beside the package's node_modules, so the test reads no stale dist and the child resolves ajv
// as an installed package would.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(packageDir, "node_modules", ".lazy-ajv-"));
  await build({
    config: false,
    entry: { index: join(packageDir, "src/index.ts") },
    outDir,
    format: ["esm"],
    target: "node20",
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
    external: ["ajv", "@cfworker/json-schema"],
    noExternal: [/^(?!ajv(\/|$)|@cfworker\/json-schema$)/],
    esbuildOptions(options) {
      options.conditions = ["@mcpkit/source"];
    },
  });
}, 60_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

// In a fresh process: import the package, compile and validate the schema, and report after each step
// whether any ajv module was loaded (ajv is CommonJS: each of its files lands in the CommonJS cache).
const script = `
import { createRequire } from "node:module";
const cache = createRequire(import.meta.url).cache;
const ajvLoaded = () => Object.keys(cache).some((path) => /[\\\\/]ajv[\\\\/]/.test(path));
const codeGeneration = (() => { try { return new Function("return true")(); } catch { return false; } })();
const { createJsonSchemaValidator } = await import(process.env.PROTOCOL_URL);
const afterImport = ajvLoaded();
const compiled = createJsonSchemaValidator().compile(JSON.parse(process.env.SCHEMA));
const verdicts = [];
for (const value of JSON.parse(process.env.VALUES)) verdicts.push((await compiled.validate(value)).ok);
const errors = [];
for (const value of JSON.parse(process.env.VALUES)) {
  const verdict = await compiled.validate(value);
  if (!verdict.ok) errors.push(verdict.errors.map((e) => e.instancePath + " " + e.keyword));
}
console.log(JSON.stringify({ afterImport, afterValidate: ajvLoaded(), verdicts, codeGeneration, errors }));
`;

function runChild(schema: unknown, values: unknown[], nodeFlags: string[] = []): Promise<unknown> {
  const env = {
    ...process.env,
    PROTOCOL_URL: pathToFileURL(join(outDir, "index.js")).href,
    SCHEMA: JSON.stringify(schema),
    VALUES: JSON.stringify(values),
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeFlags, "--input-type=module", "-e", script],
      { cwd: outDir, env, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "null"));
      },
    );
  });
}

describe("importing the built package", () => {
  const subset = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

  it("[json-schema:lazy-ajv] loads no ajv on import, nor for a schema of the subset, valid value or not", async () => {
    expect(await runChild(subset, [{ text: "hi" }, { text: 1 }])).toMatchObject({
      afterImport: false,
      afterValidate: false,
      verdicts: [true, false],
    });
  });

  it("[json-schema:lazy-ajv] loads ajv for a schema outside the subset (the probe sees it)", async () => {
    const outside = { ...subset, anyOf: [{ required: ["text"] }] };
    expect(await runChild(outside, [{ text: "hi" }, {}])).toMatchObject({
      afterImport: false,
      afterValidate: true,
      verdicts: [true, false],
    });
  });

  // A backtracking engine needs some 2^40 steps for this pattern on this value: the child would still be
  // matching when the 20 s bound kills it. The linear-time engine answers, in both engines' paths.
  it("[issue-25.4] a hostile pattern ^(a+)+$ on a 41-character value gets its verdict, in the subset and in ajv", async () => {
    const hostile = { type: "object", properties: { v: { type: "string", pattern: "^(a+)+$" } } };
    const viaAjv = { ...hostile, anyOf: [{ required: ["v"] }] };
    const values = [{ v: `${"a".repeat(40)}!` }, { v: "aaa" }];
    for (const schema of [hostile, viaAjv]) {
      expect(await runChild(schema, values)).toMatchObject({
        verdicts: [false, true],
        errors: [["/v pattern"]],
      });
    }
  });

  it("[issue-25.4] where code generation is refused, the subset still runs a hostile pattern in linear time", async () => {
    const hostile = { type: "object", properties: { v: { type: "string", pattern: "^(a+)+$" } } };
    const values = [{ v: `${"a".repeat(40)}!` }, { v: "aaa" }];
    expect(await runChild(hostile, values, ["--disallow-code-generation-from-strings"])).toMatchObject({
      codeGeneration: false,
      verdicts: [false, true],
      errors: [["/v pattern"]],
    });
  });

  // Node's --disallow-code-generation-from-strings refuses `new Function` as workerd does: the validator
  // must notice by itself and never load ajv, and still judge every keyword.
  it("[runtimes:eval-free] where code generation is refused, judges a schema outside the subset without ajv", async () => {
    const schema = {
      type: "object",
      $defs: { city: { type: "string", minLength: 2 } },
      properties: { text: { type: "string" }, city: { $ref: "#/$defs/city" } },
      required: ["text"],
      anyOf: [{ required: ["city"] }, { properties: { text: { const: "anywhere" } } }],
      additionalProperties: false,
    };
    const values = [
      { text: "hi", city: "Oslo" },
      { text: "anywhere" },
      { text: "hi" },
      { text: 1, city: "X", x: 0 },
    ];
    const flags = ["--disallow-code-generation-from-strings"];
    expect(await runChild(schema, values, flags)).toEqual({
      afterImport: false,
      afterValidate: false,
      codeGeneration: false,
      verdicts: [true, true, false, false],
      errors: [
        expect.arrayContaining([" required", "/text const"]),
        expect.arrayContaining(["/text type", "/city minLength", " additionalProperties"]),
      ],
    });
  });
});
