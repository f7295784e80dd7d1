// The real `@anthropic-ai/sdk` against a loopback server that plays a scripted model in the Messages
// API wire format; the tools run on a real MCP server (a child process over stdio).
import Anthropic from "@anthropic-ai/sdk";
import { aggregateTools, runToolLoop } from "@mcpkit/tool-loop";
import { describe, expect, it } from "vitest";
import { useCalcFixture } from "../../tool-loop/test/support/calc-fixture.js";
import type { ProviderServer } from "../../tool-loop/test/support/provider-server.js";
import { createAnthropicModel, mcpTools } from "../src/index.js";

function messageReply(content: unknown[], stopReason: string) {
  return {
    json: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
}

describe("bridge-anthropic with the real @anthropic-ai/sdk, a scripted model server and a real MCP server", () => {
  const calc = useCalcFixture((mcp) => aggregateTools({ calc: mcp }));

  const anthropic = (server: ProviderServer) =>
    new Anthropic({ baseURL: server.origin, apiKey: "test-key", maxRetries: 0 });

  it("tool_use, then the final answer built from the tool_result blocks, errors flagged is_error", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) {
        return messageReply(
          [
            { type: "text", text: "Let me compute." },
            { type: "tool_use", id: "toolu_add", name: "calc__add", input: { a: 2, b: 3 } },
            { type: "tool_use", id: "toolu_fail", name: "calc__fail", input: {} },
          ],
          "tool_use",
        );
      }
      const results = request.body.messages.at(-1).content;
      const text = results
        .map(
          (block: { content: string; is_error?: boolean }) =>
            `${block.is_error ? "error" : "ok"}:${block.content}`,
        )
        .join(" ");
      return messageReply([{ type: "text", text }], "end_turn");
    });
    const model = createAnthropicModel({ client: anthropic(provider), model: "claude-test", maxTokens: 256 });
    const result = await runToolLoop({
      model,
      tools: calc.tools,
      messages: [
        { role: "system", content: "You add." },
        { role: "user", content: "2 + 3?" },
      ],
    });

    const [first, second] = provider.requests;
    expect(first!.path).toBe("/v1/messages");
    // 0.x sent x-api-key; 1.x sends a bearer token.
    expect(first!.headers["x-api-key"] ?? first!.headers.authorization).toMatch(/test-key/);
    expect(first!.body).toMatchObject({ model: "claude-test", max_tokens: 256, system: "You add." });
    expect(first!.body.tool_choice).toBeUndefined();
    expect(first!.body.tools[0]).toEqual({
      name: "calc__add",
      description: "Adds two numbers",
      input_schema: expect.objectContaining({
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      }),
    });
    expect(second!.body.messages.slice(0, 2)).toEqual([
      { role: "user", content: "2 + 3?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me compute." },
          { type: "tool_use", id: "toolu_add", name: "calc__add", input: { a: 2, b: 3 } },
          { type: "tool_use", id: "toolu_fail", name: "calc__fail", input: {} },
        ],
      },
    ]);
    const toolResults = second!.body.messages[2];
    expect(toolResults.role).toBe("user");
    expect(toolResults.content[0]).toEqual({ type: "tool_result", tool_use_id: "toolu_add", content: "5" });
    expect(toolResults.content[1]).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_fail",
      is_error: true,
    });
    expect(toolResults.content[1].content).toContain("disk full");
    expect(result.text).toMatch(/^ok:5 error:.*disk full/);
  });

  it("forbids parallel tool use when the loop asks, and mcpTools drives a hand-written loop", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) return messageReply([{ type: "text", text: "done" }], "end_turn");
      if (index === 1) {
        return messageReply(
          [{ type: "tool_use", id: "t1", name: "weather_lookup", input: { city: "Lima" } }],
          "tool_use",
        );
      }
      return messageReply(
        [{ type: "text", text: `It is ${request.body.messages.at(-1).content[0].content}` }],
        "end_turn",
      );
    });
    const client = anthropic(provider);
    const model = createAnthropicModel({ client, model: "claude-test" });
    await runToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "hi" }],
      parallelToolCalls: false,
    });
    expect(provider.requests[0]!.body.tool_choice).toEqual({ type: "auto", disable_parallel_tool_use: true });
    expect(provider.requests[0]!.body.max_tokens).toBe(4096);

    const kit = await mcpTools(calc.mcp, { include: ["weather.lookup"] });
    expect(kit.tools.map((tool) => tool.name)).toEqual(["weather_lookup"]);
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Lima?" }];
    const first = await client.messages.create({
      model: "claude-test",
      max_tokens: 100,
      messages,
      tools: kit.tools,
    });
    messages.push({ role: "assistant", content: first.content }, await kit.run(first));
    const second = await client.messages.create({
      model: "claude-test",
      max_tokens: 100,
      messages,
      tools: kit.tools,
    });
    expect(second.content[0]).toMatchObject({ type: "text", text: 'It is {"city":"Lima","tempC":21}' });
  });
});
