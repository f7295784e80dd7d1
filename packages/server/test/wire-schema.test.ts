// What the server sends, validated against the spec's own JSON Schemas (<repo>/spec/<rev>/schema.json, vendored):
// the oracle the conformance suite's wire-schema-valid check also uses.
import { type SchemaName, schemaErrors } from "@mcpkit/test-kit/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { legacyClient, modernCall } from "./helpers.js";

/** The spec's own verdict on a value: "" when valid, ajv's errors otherwise. */
const validatorFor = (revision: SchemaName) => (definition: string, value: unknown) =>
  schemaErrors(revision, definition, value);

let server: Server;
beforeAll(() => {
  server = createServer({ name: "wire", version: "1.0.0", instructions: "x" });
  server.registerTool(
    "t",
    {
      description: "t",
      inputSchema: { type: "object", properties: { a: { type: "string" } } },
      outputSchema: { type: "object" },
    },
    (args) => ({ echoed: args.a ?? null }),
  );
  server.registerTool(
    "ask",
    {},
    async (_a, ctx) =>
      (await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } })).action,
  );
  server.registerResource("test://r", { name: "r", description: "r" }, () => "R");
  server.registerResourceTemplate("test://t/{id}", { name: "t" }, (_u, v) => v.id ?? "");
  server.registerPrompt("p", { description: "p", arguments: [{ name: "x" }] }, () => "p");
});
afterAll(async () => {
  await server.close();
});

describe("wire messages validate against the spec schemas (vendored in <repo>/spec)", () => {
  it("[wire:2026-07-28] discover, lists, call, read, prompt, completion and input_required results", async () => {
    const errors = validatorFor("2026-07-28");
    // The oracle rejects what it should: a result without its required fields.
    expect(errors("DiscoverResult", { resultType: "complete" })).not.toBe("");
    const cases: Array<[string, string, Record<string, unknown>, Record<string, unknown>?]> = [
      ["DiscoverResult", "server/discover", {}],
      ["ListToolsResult", "tools/list", {}],
      ["CallToolResult", "tools/call", { name: "t", arguments: { a: "x" } }],
      ["CallToolResult", "tools/call", { name: "t", arguments: { a: 1 } }],
      ["InputRequiredResult", "tools/call", { name: "ask" }, { elicitation: {} }],
      ["ListResourcesResult", "resources/list", {}],
      ["ListResourceTemplatesResult", "resources/templates/list", {}],
      ["ReadResourceResult", "resources/read", { uri: "test://t/9" }],
      ["ListPromptsResult", "prompts/list", {}],
      ["GetPromptResult", "prompts/get", { name: "p" }],
      [
        "CompleteResult",
        "completion/complete",
        { ref: { type: "ref/prompt", name: "p" }, argument: { name: "x", value: "" } },
      ],
    ];
    for (const [definition, method, params, capabilities] of cases) {
      const { response } = await modernCall(server, method, params, { capabilities: capabilities ?? {} });
      expect(errors("JSONRPCResultResponse", response), method).toBe("");
      expect(errors(definition, response.result), `${method} as ${definition}`).toBe("");
    }
    for (const [method, params] of [
      ["resources/read", { uri: "test://none" }],
      ["tools/call", { name: "none" }],
      ["ping", {}],
    ] as const) {
      const { response } = await modernCall(server, method, params);
      expect(errors("JSONRPCErrorResponse", response), method).toBe("");
    }
  });

  it("[wire:2025-11-25] initialize and the legacy results", async () => {
    const errors = validatorFor("2025-11-25");
    const client = await legacyClient(server);
    try {
      expect(errors("InitializeResult", client.init)).toBe("");
      expect(errors("ListToolsResult", await client.request("tools/list"))).toBe("");
      expect(
        errors("CallToolResult", await client.request("tools/call", { name: "t", arguments: { a: "x" } })),
      ).toBe("");
      expect(errors("ReadResourceResult", await client.request("resources/read", { uri: "test://r" }))).toBe(
        "",
      );
      expect(errors("ListResourceTemplatesResult", await client.request("resources/templates/list"))).toBe(
        "",
      );
      expect(errors("GetPromptResult", await client.request("prompts/get", { name: "p" }))).toBe("");
    } finally {
      await client.close();
    }
  });
});
