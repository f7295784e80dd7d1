// createAiSdkModel: the tool loop on the real `ai` (streamText / generateText) with @ai-sdk/openai
// pointed at the loopback scripted provider streaming server-sent events; tools on a real MCP server.
import { createOpenAI } from "@ai-sdk/openai";
import { aggregateTools, streamToolLoop } from "@mcpkit/tool-loop";
import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { briefEvent } from "../../tool-loop/test/support/brief-event.js";
import { useCalcFixture } from "../../tool-loop/test/support/calc-fixture.js";
import type { ProviderServer } from "../../tool-loop/test/support/provider-server.js";
import { createAiSdkModel } from "../src/index.js";

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 0,
  model: "scripted",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe("createAiSdkModel with the real ai + @ai-sdk/openai and a real MCP server", () => {
  const calc = useCalcFixture((mcp) => aggregateTools({ calc: mcp }));

  const openai = (server: ProviderServer) =>
    createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test-key" });

  it("streamText: events in order, arguments assembled from pieces, results sent back as tool messages", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) {
        return {
          sse: [
            chunk({ role: "assistant", content: "" }),
            chunk({ content: "Adding." }),
            chunk({
              tool_calls: [
                { index: 0, id: "c1", type: "function", function: { name: "calc__add", arguments: "" } },
              ],
            }),
            chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":4' } }] }),
            chunk({ tool_calls: [{ index: 0, function: { arguments: ',"b":5}' } }] }),
            chunk({}, "tool_calls"),
          ],
          done: true,
        };
      }
      const tool = request.body.messages.find((m: { role: string }) => m.role === "tool");
      return {
        sse: [chunk({ content: "= " }), chunk({ content: tool.content }), chunk({}, "stop")],
        done: true,
      };
    });
    const model = createAiSdkModel({ model: openai(provider).chat("gpt-test"), streamText, generateText });
    const stream = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "4 + 5?" }],
    });
    const events: string[] = [];
    for await (const event of stream) events.push(briefEvent(event));
    expect(events).toEqual([
      "text-delta:Adding.",
      'input:{"a":4',
      'input:,"b":5}',
      'call:calc__add:{"a":4,"b":5}',
      "result:9",
      "step:0",
      "text-delta:= ",
      "text-delta:9",
      "step:1",
      "finish:stop",
    ]);
    expect(provider.requests[1]!.body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: "Adding.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "calc__add", arguments: '{"a":4,"b":5}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "9" },
    ]);
    expect(provider.requests[0]!.body.stream).toBe(true);
  });

  it("Responses: a reasoning item round-trips through the AI SDK's provider metadata", async () => {
    const reasoningItem = {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "Sum it." }],
      encrypted_content: "blob-1",
    };
    const provider = await calc.startProvider((_request, index) => {
      const output =
        index === 0
          ? [
              reasoningItem,
              {
                type: "function_call",
                id: "fc_1",
                call_id: "k1",
                name: "calc__add",
                arguments: '{"a":1,"b":2}',
                status: "completed",
              },
            ]
          : [
              {
                type: "message",
                id: "m1",
                role: "assistant",
                status: "completed",
                content: [{ type: "output_text", text: "3", annotations: [] }],
              },
            ];
      return {
        json: {
          id: `resp_${index}`,
          object: "response",
          created_at: 0,
          status: "completed",
          model: "o-test",
          output,
          usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
        },
      };
    });
    const model = createAiSdkModel({
      model: openai(provider).responses("o-test"),
      streamText,
      generateText,
      request: { providerOptions: { openai: { store: false, include: ["reasoning.encrypted_content"] } } },
    });
    const { runToolLoop } = await import("@mcpkit/tool-loop");
    const result = await runToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "1 + 2?" }],
    });
    expect(result.text).toBe("3");
    const input = provider.requests[1]!.body.input;
    const sentBack = input.find((item: { type?: string }) => item.type === "reasoning");
    expect(sentBack).toMatchObject({ type: "reasoning", encrypted_content: "blob-1" });
    expect(input.indexOf(sentBack)).toBeLessThan(
      input.findIndex((item: { type?: string }) => item.type === "function_call"),
    );
  });
});
