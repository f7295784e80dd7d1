import { toStandardJsonSchema, toJsonSchema as valibotToJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, type Server, type StandardSchemaV1, withInputSchema } from "../src/index.js";
import { legacyClient, modernCall } from "./helpers.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

const call = (name: string, args: unknown, s: Server = server) =>
  modernCall(s, "tools/call", { name, arguments: args }).then((r) => r.response);

describe("tool schemas", () => {
  it("[tools:json-schema] a JSON Schema input is listed verbatim and checked; invalid arguments are an isError result", async () => {
    server = createServer({ name: "s", version: "1" });
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { $anchor: "addressDef", type: "object", properties: { city: { type: "string" } } } },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { name: { const: "x" } }, required: ["name"] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    };
    server.registerTool(
      "json_schema_2020_12_tool",
      { description: "2020-12", inputSchema: schema },
      (args) => `ok ${String(args.name)}`,
    );
    const list = (await modernCall(server, "tools/list")).response.result;
    expect(list.tools[0].inputSchema).toEqual(schema);
    expect((await call("json_schema_2020_12_tool", { name: "a", email: "e" })).result.content[0].text).toBe(
      "ok a",
    );
    const bad = (await call("json_schema_2020_12_tool", { name: "x", email: "e" })).result;
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(
      /^Invalid arguments for tool json_schema_2020_12_tool: arguments must have required property 'phone'/,
    );
    const extra = (await call("json_schema_2020_12_tool", { email: "e", other: 1 })).result;
    expect(extra.content[0].text).toContain("must NOT have additional properties (other)");
  });

  it("[tools:draft-07] a draft-07 schema is compiled with draft-07 rules", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool(
      "d7",
      {
        inputSchema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { items: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
        },
      },
      () => "ok",
    );
    expect((await call("d7", { items: ["a", 1] })).result.isError).toBeUndefined();
    expect((await call("d7", { items: [1, "a"] })).result.isError).toBe(true);
  });

  it("[tools:no-network-ref] a schema with a network $ref fails registration and nothing is fetched", () => {
    server = createServer({ name: "s", version: "1" });
    expect(() =>
      server.registerTool(
        "remote",
        { inputSchema: { type: "object", properties: { a: { $ref: "https://example.com/schema.json" } } } },
        () => "x",
      ),
    ).toThrow(/does not compile/);
    expect(() =>
      server.registerTool(
        "dialect",
        { inputSchema: { $schema: "https://example.com/my-dialect", type: "object" } },
        () => "x",
      ),
    ).toThrow(/unsupported JSON Schema dialect/);
  });

  it("[tools:standard-schema] zod, valibot and arktype schemas are converted for listing and type the arguments", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool(
      "zod",
      { inputSchema: z.object({ a: z.number().int(), b: z.string().default("B") }) },
      (args) => {
        const sum: number = args.a + 1;
        return `${sum} ${args.b}`;
      },
    );
    server.registerTool(
      "valibot",
      { inputSchema: toStandardJsonSchema(v.object({ s: v.pipe(v.string(), v.minLength(2)) })) },
      (args) => args.s.toUpperCase(),
    );
    server.registerTool("arktype", { inputSchema: type({ n: "number > 0" }) }, (args) => String(args.n * 2));
    const tools = (await modernCall(server, "tools/list")).response.result.tools;
    expect(tools.map((t: any) => t.inputSchema.properties)).toEqual([
      {
        a: { type: "integer", minimum: expect.any(Number), maximum: expect.any(Number) },
        b: { type: "string", default: "B" },
      },
      { s: { type: "string", minLength: 2 } },
      { n: { type: "number", exclusiveMinimum: 0 } },
    ]);
    expect((await call("zod", { a: 1 })).result.content[0].text).toBe("2 B");
    expect((await call("zod", { a: 1.5 })).result).toMatchObject({ isError: true });
    expect((await call("valibot", { s: "ab" })).result.content[0].text).toBe("AB");
    expect((await call("valibot", { s: "a" })).result.content[0].text).toMatch(
      /^Invalid arguments for tool valibot: s: /,
    );
    expect((await call("arktype", { n: 4 })).result.content[0].text).toBe("8");
    expect((await call("arktype", { n: -1 })).result.isError).toBe(true);
  });

  it("[tools:converter] a Standard Schema without jsonSchema needs createServer({ toJsonSchema })", async () => {
    const plain = v.object({ x: v.string() }) as unknown as StandardSchemaV1;
    server = createServer({ name: "s", version: "1" });
    expect(() => server.registerTool("plain", { inputSchema: plain }, () => "x")).toThrow(/toJsonSchema/);
    const converting = createServer({
      name: "s",
      version: "1",
      toJsonSchema: (schema) => valibotToJsonSchema(schema as never) as never,
    });
    try {
      converting.registerTool("plain", { inputSchema: plain }, (args) => String((args as { x: string }).x));
      expect((await call("plain", { x: "y" }, converting)).result.content[0].text).toBe("y");
    } finally {
      await converting.close();
    }
  });

  it("[tools:with-input-schema] the schema can come with the handler", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool(
      "bound",
      { description: "schema from the handler" },
      withInputSchema(z.object({ city: z.string() }), (args) => `weather in ${args.city}`),
    );
    const tool = (await modernCall(server, "tools/list")).response.result.tools[0];
    expect(tool.inputSchema.properties).toEqual({ city: { type: "string" } });
    expect((await call("bound", { city: "Oslo" })).result.content[0].text).toBe("weather in Oslo");
    expect((await call("bound", {})).result.isError).toBe(true);
  });

  it("[tools:output-schema] structuredContent is checked; isError results are not", async () => {
    const logged: string[] = [];
    server = createServer({ name: "s", version: "1", logger: { error: (m) => logged.push(m) } });
    const outputSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    server.registerTool("good", { outputSchema }, () => ({ n: 1 }));
    server.registerTool("bad", { outputSchema }, () => ({ n: "one" }));
    server.registerTool("failing", { outputSchema }, () => ({
      content: [{ type: "text", text: "no" }],
      isError: true,
    }));
    expect((await call("good", {})).result).toEqual({
      content: [{ type: "text", text: '{"n":1}' }],
      structuredContent: { n: 1 },
      resultType: "complete",
    });
    expect((await call("bad", {})).error).toEqual({ code: -32603, message: "Internal error" });
    expect(logged).toEqual([expect.stringContaining("fails its outputSchema")]);
    expect((await call("failing", {})).result.isError).toBe(true);
  });
});

describe("handler results and robustness", () => {
  it("[tools/call:results] strings, content arrays, full results and values map to CallToolResult", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("s", {}, () => "text");
    server.registerTool("a", {}, () => [{ type: "image", data: "AA==", mimeType: "image/png" }]);
    server.registerTool("r", {}, () => ({ content: [{ type: "text", text: "x" }], _meta: { k: 1 } }));
    server.registerTool("v", {}, () => [1, 2]);
    server.registerTool("u", {}, () => undefined);
    expect((await call("s", {})).result.content).toEqual([{ type: "text", text: "text" }]);
    expect((await call("a", {})).result.content).toEqual([
      { type: "image", data: "AA==", mimeType: "image/png" },
    ]);
    expect((await call("r", {})).result).toEqual({
      content: [{ type: "text", text: "x" }],
      _meta: { k: 1 },
      resultType: "complete",
    });
    expect((await call("v", {})).result).toEqual({
      content: [{ type: "text", text: "[1,2]" }],
      structuredContent: [1, 2],
      resultType: "complete",
    });
    expect((await call("u", {})).result.content).toEqual([]);
  });

  it("[tools/call:isError] a throwing handler becomes an isError result with its message only", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("boom", {}, () => {
      throw new Error("This tool intentionally returns an error for testing");
    });
    expect((await call("boom", {})).result).toEqual({
      content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
      isError: true,
      resultType: "complete",
    });
  });

  it("[robustness:internal-error] any other failure is -32603 'Internal error' with the detail only in the logger", async () => {
    const logged: unknown[] = [];
    server = createServer({ name: "s", version: "1", logger: { error: (m, e) => logged.push(m, e) } });
    server.registerPrompt("broken", {}, () => {
      throw new Error("/secret/path/to/file and argument 42");
    });
    server.registerResource("test://broken", { name: "b" }, () => {
      throw new Error("/secret/path");
    });
    const prompt = await modernCall(server, "prompts/get", { name: "broken" });
    expect(prompt.response.error).toEqual({ code: -32603, message: "Internal error" });
    const read = await modernCall(server, "resources/read", { uri: "test://broken" });
    expect(read.response.error).toEqual({ code: -32603, message: "Internal error" });
    expect(JSON.stringify([prompt.sent, read.sent])).not.toContain("secret");
    expect(String(logged[1])).toContain("/secret/path/to/file");
  });

  it("[tools/call:unknown] an unknown tool or prompt is -32602", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("t", {}, () => "x");
    server.registerPrompt("p", {}, () => "x");
    expect((await call("nope", {})).error.code).toBe(-32602);
    expect((await modernCall(server, "prompts/get", { name: "nope" })).response.error.code).toBe(-32602);
  });

  it("[registry:duplicates] a duplicate or malformed name fails registration", () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("t", {}, () => "x");
    expect(() => server.registerTool("t", {}, () => "x")).toThrow(/already registered/);
    expect(() => server.registerTool("has space", {}, () => "x")).toThrow(/must be 1-128/);
    expect(() =>
      server.registerTool(
        "hdr",
        { inputSchema: { type: "object", properties: { a: { type: "number", "x-mcp-header": "A" } } } },
        () => "x",
      ),
    ).toThrow(/x-mcp-header/);
  });
});

describe("resources and prompts", () => {
  it("[resources:templates] templates match URIs, get their variables, and bytes become a base64 blob", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerResource(
      "test://static-binary",
      { name: "bin", mimeType: "image/png" },
      () => new Uint8Array([1, 2, 3]),
    );
    server.registerResourceTemplate(
      "test://template/{id}/data",
      { name: "tpl", mimeType: "application/json" },
      (uri, vars) => JSON.stringify({ id: vars.id, uri }),
    );
    server.registerResourceTemplate("file://{+path}", { name: "files" }, (_uri, vars) =>
      vars.path === "missing" ? undefined : `file ${vars.path}`,
    );
    const read = (uri: string) => modernCall(server, "resources/read", { uri }).then((r) => r.response);
    expect((await read("test://static-binary")).result.contents).toEqual([
      { uri: "test://static-binary", mimeType: "image/png", blob: "AQID" },
    ]);
    expect((await read("test://template/123/data")).result.contents[0].text).toBe(
      '{"id":"123","uri":"test://template/123/data"}',
    );
    expect((await read("file://a/b%20c.txt")).result.contents[0].text).toBe("file a/b c.txt");
    expect((await read("file://missing")).error.code).toBe(-32602);
    const templates = (await modernCall(server, "resources/templates/list")).response.result
      .resourceTemplates;
    expect(templates).toEqual([
      { uriTemplate: "test://template/{id}/data", name: "tpl", mimeType: "application/json" },
      { uriTemplate: "file://{+path}", name: "files" },
    ]);
  });

  it("[prompts:arguments] required arguments are enforced; argsSchema arguments are derived and checked", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerPrompt(
      "test_prompt_with_arguments",
      { arguments: [{ name: "arg1", required: true }, { name: "arg2" }] },
      (args) => `Prompt with arguments: arg1='${args.arg1}', arg2='${String(args.arg2)}'`,
    );
    server.registerPrompt(
      "schema",
      {
        argsSchema: z.object({
          topic: z.string().describe("The topic"),
          tone: z.enum(["calm", "loud"]).optional(),
        }),
      },
      (args) => [{ role: "user", content: { type: "text", text: `${args.topic}/${String(args.tone)}` } }],
    );
    const prompts = (await modernCall(server, "prompts/list")).response.result.prompts;
    expect(prompts[1].arguments).toEqual([
      { name: "topic", description: "The topic", required: true },
      { name: "tone" },
    ]);
    const get = (name: string, args: unknown) =>
      modernCall(server, "prompts/get", { name, arguments: args }).then((r) => r.response);
    expect(
      (await get("test_prompt_with_arguments", { arg1: "a", arg2: "b" })).result.messages[0].content.text,
    ).toBe("Prompt with arguments: arg1='a', arg2='b'");
    expect((await get("test_prompt_with_arguments", { arg2: "b" })).error.code).toBe(-32602);
    expect((await get("schema", { topic: "t", tone: "calm" })).result.messages[0].content.text).toBe(
      "t/calm",
    );
    expect((await get("schema", { topic: "t", tone: "angry" })).error.code).toBe(-32602);
  });

  it("[pagination] lists page with opaque cursors; a foreign cursor is -32602", async () => {
    server = createServer({ name: "s", version: "1", pageSize: 2 });
    for (const n of ["a", "b", "c", "d", "e"]) server.registerTool(n, {}, () => n);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = (await modernCall(server, "tools/list", cursor === undefined ? {} : { cursor })).response
        .result;
      names.push(...r.tools.map((t: { name: string }) => t.name));
      cursor = r.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(names).toEqual(["a", "b", "c", "d", "e"]);
    expect(pages).toBe(3);
    expect((await modernCall(server, "tools/list", { cursor: "not-ours" })).response.error.code).toBe(-32602);
    const legacy = await legacyClient(server);
    try {
      const first = await legacy.request("tools/list");
      expect(first.tools).toHaveLength(2);
      expect(await legacy.request("tools/list", { cursor: first.nextCursor })).toMatchObject({
        tools: [{ name: "c" }, { name: "d" }],
      });
    } finally {
      await legacy.close();
    }
  });

  it("[completion] prompt arguments and template variables complete; at most 100 values", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerPrompt(
      "p",
      {
        arguments: [{ name: "arg1" }],
        complete: { arg1: (value) => ["alpha", "beta", "alps"].filter((x) => x.startsWith(value)) },
      },
      () => "x",
    );
    server.registerResourceTemplate(
      "test://n/{n}",
      { name: "n", complete: { n: () => Array.from({ length: 150 }, (_, i) => String(i)) } },
      () => "x",
    );
    const complete = (ref: unknown, name: string, value: string) =>
      modernCall(server, "completion/complete", { ref, argument: { name, value } }).then((r) => r.response);
    expect((await complete({ type: "ref/prompt", name: "p" }, "arg1", "al")).result.completion).toEqual({
      values: ["alpha", "alps"],
      total: 2,
      hasMore: false,
    });
    expect((await complete({ type: "ref/prompt", name: "p" }, "other", "")).result.completion.values).toEqual(
      [],
    );
    const many = (await complete({ type: "ref/resource", uri: "test://n/{n}" }, "n", "")).result.completion;
    expect(many.values).toHaveLength(100);
    expect(many).toMatchObject({ total: 150, hasMore: true });
    expect((await complete({ type: "ref/prompt", name: "nope" }, "a", "")).error.code).toBe(-32602);
  });
});
