import { aggregateTools } from "@mcpkit/tool-loop";
import { asSchema } from "ai";
import { describe, expect, it } from "vitest";
import { aiSdkJsonSchema, mcpToolSet } from "./tool-set.js";

describe("mcpToolSet", () => {
  it("gives the AI SDK the server's JSON Schema untouched and maps failures to error-text", async () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const source = {
      listTools: async () => [
        { name: "find.it", description: "finds", inputSchema: schema, title: "Find" },
        { name: "boom" },
      ],
      callTool: async (name: string) =>
        name === "boom" ? { content: "exploded", isError: true } : { content: "", structured: { hits: 3 } },
    };
    const set = await mcpToolSet(await aggregateTools(source));
    expect(Object.keys(set)).toEqual(["find_it", "boom"]);
    expect(set.find_it!.title).toBe("Find");
    expect(await asSchema(set.find_it!.inputSchema).jsonSchema).toBe(schema);
    expect(asSchema(aiSdkJsonSchema(schema)).validate?.({ any: 1 })).toEqual({
      success: true,
      value: { any: 1 },
    });

    const ok = await set.find_it!.execute({ q: "x" }, { toolCallId: "1" });
    expect(ok).toEqual({ content: '{"hits":3}', isError: false, structured: { hits: 3 } });
    expect(set.find_it!.toModelOutput({ output: ok })).toEqual({ type: "text", value: '{"hits":3}' });
    const failed = await set.boom!.execute({}, { toolCallId: "2" });
    expect(set.boom!.toModelOutput({ output: failed })).toEqual({ type: "error-text", value: "exploded" });
  });
});
