// The real `ai` package (generateText) with @ai-sdk/openai pointed at a loopback server that plays a
// scripted model in OpenAI's wire formats; the tools run on a real MCP server over stdio.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { useCalcFixture } from "../../tool-loop/test/support/calc-fixture.js";
import type { ProviderServer } from "../../tool-loop/test/support/provider-server.js";
import { mcpToolSet } from "../src/index.js";

function chatReply(message: Record<string, unknown>, finish: string) {
  return {
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 0,
      model: "scripted",
      choices: [
        { index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: finish },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  };
}

function toolCallsReply(calls: { id: string; name: string; args: unknown }[]) {
  return chatReply(
    {
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    },
    "tool_calls",
  );
}

describe("bridge-ai-sdk with the real ai + @ai-sdk/openai, a scripted model server and a real MCP server", () => {
  const calc = useCalcFixture((mcp) => mcpToolSet({ calc: mcp }), { captureStderr: true });

  const chatModel = (server: ProviderServer) =>
    createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test-key" }).chat("gpt-test");

  it("generateText calls MCP tools and answers from their results; a failure reaches the model as an error", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) {
        return toolCallsReply([
          { id: "c_add", name: "calc__add", args: { a: 20, b: 22 } },
          { id: "c_fail", name: "calc__fail", args: {} },
        ]);
      }
      const results = request.body.messages.filter((m: { role: string }) => m.role === "tool");
      return chatReply({ content: results.map((m: { content: string }) => m.content).join(" | ") }, "stop");
    });
    const toolSet: ToolSet = calc.tools; // the structural set is a ToolSet of ai 6
    const result = await generateText({
      model: chatModel(provider),
      tools: toolSet,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      prompt: "20 + 22?",
    });

    const [first, second] = provider.requests;
    expect(first!.path).toBe("/v1/chat/completions");
    const add = first!.body.tools.find(
      (tool: { function: { name: string } }) => tool.function.name === "calc__add",
    );
    expect(add.function.description).toBe("Adds two numbers");
    expect(add.function.parameters).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    const toolMessages = second!.body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(toolMessages[0]).toEqual({ role: "tool", tool_call_id: "c_add", content: "42" });
    expect(toolMessages[1].tool_call_id).toBe("c_fail");
    expect(toolMessages[1].content).toContain("disk full");

    expect(result.text).toMatch(/^42 \| .*disk full/);
    expect(result.steps).toHaveLength(2);
    const outputs = result.steps[0]!.toolResults.map((part) => part.output);
    expect(outputs[0]).toEqual({ content: "42", isError: false });
    expect(outputs[1]).toMatchObject({ isError: true });
  });

  it("structured-only results reach the model as JSON, and the AI SDK's abort signal cancels the MCP call", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0)
        return toolCallsReply([{ id: "w", name: "calc__weather_lookup", args: { city: "Rome" } }]);
      if (index === 1) return chatReply({ content: request.body.messages.at(-1).content }, "stop");
      return toolCallsReply([{ id: "h", name: "calc__hang", args: {} }]);
    });
    const weather = await generateText({
      model: chatModel(provider),
      tools: calc.tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      prompt: "Rome?",
    });
    expect(weather.text).toBe('{"city":"Rome","tempC":21}');
    expect(weather.steps[0]!.toolResults[0]!.output).toEqual({
      content: '{"city":"Rome","tempC":21}',
      isError: false,
      structured: { city: "Rome", tempC: 21 },
    });

    const controller = new AbortController();
    const started = calc.stderr.next("hang: started");
    const cancelled = calc.stderr.next("hang: cancelled");
    const run = generateText({
      model: chatModel(provider),
      tools: calc.tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      prompt: "hang",
      abortSignal: controller.signal,
    });
    await started;
    controller.abort(new Error("user stop"));
    await expect(run).rejects.toThrow();
    await cancelled; // the MCP server saw the cancellation
  });
});
