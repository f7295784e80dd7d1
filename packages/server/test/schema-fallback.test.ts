import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { SchemaCompiler } from "../src/internal/schema.js";
import { legacyClient, modernCall } from "./helpers.js";

const OPTIONS = { strict: false, allErrors: true, logger: false as const, validateFormats: false };

let server: Server;
afterEach(async () => {
  await server?.close();
});

const call = (name: string, args: unknown) =>
  modernCall(server, "tools/call", { name, arguments: args }).then((r) => r.response);

type Schema = Record<string, unknown>;

// Each keyword outside the subset, with arguments ajv accepts and arguments it refuses.
const outside: Array<[string, Schema, Record<string, unknown>, Record<string, unknown>]> = [
  [
    "$ref/$defs",
    { $defs: { s: { type: "string" } }, properties: { a: { $ref: "#/$defs/s" } } },
    { a: "x" },
    { a: 1 },
  ],
  [
    "definitions",
    { definitions: { s: { type: "string" } }, properties: { a: { $ref: "#/definitions/s" } } },
    { a: "x" },
    { a: 1 },
  ],
  ["$id", { $id: "https://example.com/tool-a", properties: { a: { type: "string" } } }, { a: "x" }, { a: 1 }],
  ["allOf", { allOf: [{ required: ["a"] }, { required: ["b"] }] }, { a: 1, b: 2 }, { a: 1 }],
  ["anyOf", { anyOf: [{ required: ["a"] }, { required: ["b"] }] }, { b: 1 }, { c: 1 }],
  ["oneOf", { oneOf: [{ required: ["a"] }, { required: ["b"] }] }, { a: 1 }, { a: 1, b: 1 }],
  ["not", { not: { required: ["a"] } }, { b: 1 }, { a: 1 }],
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
  ["if/then", { if: { required: ["a"] }, then: { required: ["b"] } }, { a: 1, b: 1 }, { a: 1 }],
  ["patternProperties", { patternProperties: { "^n_": { type: "number" } } }, { n_1: 1 }, { n_1: "x" }],
  ["prefixItems", { properties: { a: { prefixItems: [{ type: "string" }] } } }, { a: ["x", 1] }, { a: [1] }],
  ["multipleOf", { properties: { a: { multipleOf: 2 } } }, { a: 4 }, { a: 3 }],
  ["uniqueItems", { properties: { a: { uniqueItems: true } } }, { a: [1, 2] }, { a: [1, 1] }],
  ["minProperties", { minProperties: 1 }, { a: 1 }, {}],
  ["dependentRequired", { dependentRequired: { a: ["b"] } }, { a: 1, b: 1 }, { a: 1 }],
  ["propertyNames", { propertyNames: { maxLength: 2 } }, { ab: 1 }, { abc: 1 }],
  ["contains", { properties: { a: { contains: { type: "string" } } } }, { a: [1, "x"] }, { a: [1] }],
  ["nullable", { properties: { a: { type: "string", nullable: true } } }, { a: null }, { a: 1 }],
  ["false subschema", { properties: { a: false } }, { b: 1 }, { a: 1 }],
];

describe("schemas outside the subset are validated by ajv, loaded on first need", () => {
  for (const [name, schema, good, bad] of outside) {
    it(`[schema:fallback] ${name}`, async () => {
      server = createServer({ name: "s", version: "1" });
      const inputSchema = { type: "object", ...schema };
      server.registerTool("t", { inputSchema }, () => "ok");
      // The reference: ajv itself, with the server's options.
      const reference = new Ajv2020(OPTIONS).compile(inputSchema);
      expect(reference(good)).toBe(true);
      expect(reference(bad)).toBe(false);
      expect((await call("t", good)).result.isError).toBeUndefined();
      const refused = (await call("t", bad)).result;
      expect(refused.isError).toBe(true);
    });
  }

  it("[schema:fallback-draft07] draft-07 tuple items go to ajv's draft-07 instance", async () => {
    const compiler = new SchemaCompiler(undefined);
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { t: { items: [{ type: "string" }], additionalItems: false } },
    };
    const { check } = compiler.compile(schema, "input", "Tool t inputSchema", true);
    const reference = new Ajv(OPTIONS).compile(schema);
    const pending = check({ t: ["x", 1] });
    expect(pending).toBeInstanceOf(Promise);
    const checked = await pending;
    expect(reference({ t: ["x", 1] })).toBe(false);
    expect(checked).toEqual({ ok: false, message: "arguments/t must NOT have more than 1 items" });
    // Once ajv has compiled the schema, checks are synchronous again.
    expect(check({ t: ["x"] })).toEqual({ ok: true, value: { t: ["x"] } });
  });

  it("[schema:subset-sync] a schema of the subset is checked synchronously, with ajv's message", () => {
    const compiler = new SchemaCompiler(undefined);
    const { check } = compiler.compile(
      { properties: { a: { type: "string" }, b: { type: "integer", minimum: 1 } }, required: ["a"] },
      "input",
      "Tool t inputSchema",
      true,
    );
    expect(check({ b: 0.5 })).toEqual({
      ok: false,
      message:
        "arguments must have required property 'a'; arguments/b must be integer; arguments/b must be >= 1",
    });
    expect(check({ a: "x" })).toEqual({ ok: true, value: { a: "x" } });
  });
});

describe("what still fails registration", () => {
  const refusals: Array<[string, Schema]> = [
    ["a network $ref", { properties: { a: { $ref: "https://example.com/schema.json" } } }],
    ["a relative $ref with no $id", { properties: { a: { $ref: "other.json" } } }],
    ["a $ref to an id not declared", { $id: "https://example.com/a", properties: { a: { $ref: "b" } } }],
    ["a type that names no type", { properties: { a: { type: "strnig" } } }],
    ["a negative minLength", { properties: { a: { type: "string", minLength: -1 } } }],
    ["an invalid pattern", { properties: { a: { type: "string", pattern: "(" } } }],
    ["an empty enum", { properties: { a: { enum: [] } } }],
    ["the 2020-12 dialect spelled with http", { $schema: "http://json-schema.org/draft/2020-12/schema" }],
    ["the draft-07 dialect spelled with https", { $schema: "https://json-schema.org/draft-07/schema#" }],
  ];
  for (const [name, schema] of refusals) {
    it(`[schema:registration-error] ${name}`, () => {
      server = createServer({ name: "s", version: "1" });
      expect(() =>
        server.registerTool("bad", { inputSchema: { type: "object", ...schema } }, () => "x"),
      ).toThrow(/^Tool bad inputSchema: the JSON Schema does not compile/);
    });
  }

  it("[schema:refs] references to the schema's own ids, another tool's id and the meta-schema are allowed", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool(
      "a",
      {
        inputSchema: {
          $id: "https://example.com/tools/a",
          type: "object",
          $defs: { name: { $id: "name", type: "string" } },
          properties: { n: { $ref: "name" } },
        },
      },
      () => "a",
    );
    server.registerTool(
      "b",
      {
        inputSchema: {
          type: "object",
          properties: {
            n: { $ref: "https://example.com/tools/name" },
            s: { $ref: "https://json-schema.org/draft/2020-12/schema" },
          },
        },
      },
      () => "b",
    );
    expect((await call("a", { n: "x" })).result.isError).toBeUndefined();
    expect((await call("a", { n: 1 })).result.isError).toBe(true);
    expect((await call("b", { n: "x", s: { type: "string" } })).result.isError).toBeUndefined();
    expect((await call("b", { n: 1 })).result.isError).toBe(true);
    expect((await call("b", { s: { type: 5 } })).result.isError).toBe(true);
  });
});

describe("a schema ajv cannot compile, found at first use", () => {
  const broken = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } };

  function loggingServer() {
    const logged: Array<{ message: string; error: unknown }> = [];
    server = createServer({
      name: "s",
      version: "1",
      logger: { error: (message, error) => logged.push({ message, error }) },
    });
    return logged;
  }

  const detail = (logged: Array<{ error: unknown }>) =>
    logged.map((l) => (l.error instanceof Error ? l.error.message : String(l.error))).join("\n");

  it("[schema:fallback-compile-error] a tool call is answered -32603 each time, and the log names the tool", async () => {
    const logged = loggingServer();
    server.registerTool("broken", { inputSchema: broken }, () => "never");
    for (let i = 0; i < 2; i++) {
      const response = await call("broken", { a: 1 });
      expect(response.error).toEqual({ code: -32603, message: "Internal error" });
    }
    expect(detail(logged)).toMatch(
      /Tool broken inputSchema: the JSON Schema does not compile \(can't resolve reference/,
    );
  });

  it("[schema:fallback-compile-error] over a legacy session too, and for an outputSchema and a prompt's argsSchema", async () => {
    const logged = loggingServer();
    server.registerTool("out", { outputSchema: broken }, () => ({
      content: [],
      structuredContent: { a: 1 },
    }));
    server.registerPrompt("p", { argsSchema: broken }, () => ({ messages: [] }));
    const client = await legacyClient(server);
    try {
      await expect(client.request("tools/call", { name: "out", arguments: {} })).rejects.toMatchObject({
        code: -32603,
      });
      await expect(client.request("prompts/get", { name: "p", arguments: {} })).rejects.toMatchObject({
        code: -32603,
      });
    } finally {
      await client.close();
    }
    expect(detail(logged)).toMatch(/Tool out outputSchema: the JSON Schema does not compile/);
    expect(detail(logged)).toMatch(/Prompt p argsSchema: the JSON Schema does not compile/);
  });

  it("[schema:fallback-unused] a broken schema that is never used makes no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const compiler = new SchemaCompiler(undefined);
      const { check } = compiler.compile(broken, "input", "Tool unused inputSchema", true);
      // Wait for the background compile to fail, through a check (which rejects, and is handled here).
      await expect(check({})).rejects.toThrow(/does not compile/);
      compiler.compile(broken, "input", "Tool other inputSchema", true);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
