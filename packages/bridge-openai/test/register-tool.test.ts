// The reverse direction: OpenAI function tools registered on a real @mcpkit/server, called by a real
// @mcpkit/client over the in-process transport pair.
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { describe, expect, it } from "vitest";
import { registerOpenAITool } from "../src/index.js";

describe("registerOpenAITool", () => {
  it("serves Chat Completions and Responses function tools over MCP with their schemas carried over", async () => {
    const server = createServer({ name: "openai-tools", version: "1.0.0" });
    const weatherParameters = {
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        unit: { type: "string", enum: ["c", "f"] },
      },
      required: ["city"],
      additionalProperties: false,
    };
    registerOpenAITool(
      server,
      {
        type: "function",
        function: { name: "get_weather", description: "Weather of a city", parameters: weatherParameters },
      },
      (args) => `Sunny in ${String(args.city)}`,
    );
    registerOpenAITool(
      server,
      {
        type: "function",
        name: "lookup_user",
        description: "A user record",
        parameters: { type: "object", properties: { id: { type: "integer" } } },
        strict: false,
      },
      async (args) => ({ id: args.id, name: "Ada" }),
    );
    registerOpenAITool(
      server,
      { type: "function", function: { name: "explode" } },
      () => {
        throw new Error("no such thing");
      },
      { name: "explode_renamed" },
    );

    const [clientSide, serverSide] = createInMemoryPair();
    await server.connect(serverSide);
    const client = createClient({ name: "test", version: "1.0.0" });
    try {
      await client.connect(clientSide);
      const listed = await client.listTools();
      expect(listed.map((tool) => tool.name)).toEqual(["get_weather", "lookup_user", "explode_renamed"]);
      expect(listed[0]).toMatchObject({ description: "Weather of a city", inputSchema: weatherParameters });
      expect(listed[2]!.inputSchema).toMatchObject({ type: "object" });

      expect(await client.callTool("get_weather", { city: "Oslo" })).toMatchObject({
        content: "Sunny in Oslo",
        isError: false,
      });
      const user = await client.callTool("lookup_user", { id: 7 });
      expect(user).toMatchObject({ structured: { id: 7, name: "Ada" }, isError: false });
      expect(JSON.parse(user.content)).toEqual({ id: 7, name: "Ada" });
      const bad = await client.callTool("get_weather", { unit: "c" }); // schema enforced by the server
      expect(bad.isError).toBe(true);
      const thrown = await client.callTool("explode_renamed", {});
      expect(thrown).toMatchObject({ isError: true });
      expect(thrown.content).toContain("no such thing");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
