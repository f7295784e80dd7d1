// The real `openai` SDK against a loopback server that plays a scripted model in OpenAI's wire
// formats; the tools run on a real MCP server (a child process over stdio).
import { aggregateTools, runToolLoop } from "@mcpkit/tool-loop";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useCalcFixture } from "../../tool-loop/test/support/calc-fixture.js";
import type { ProviderServer } from "../../tool-loop/test/support/provider-server.js";
import {
  createOpenAIChatModel,
  createOpenAIResponsesModel,
  mcpTools,
  mcpToolsRespond,
} from "../src/index.js";

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

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
      usage,
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

function responsesReply(output: unknown[]) {
  return {
    json: {
      id: "resp_1",
      object: "response",
      created_at: 0,
      status: "completed",
      model: "scripted",
      output,
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    },
  };
}

const messageItem = (text: string) => ({
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});

describe("bridge-openai with the real openai SDK, a scripted model server and a real MCP server", () => {
  const calc = useCalcFixture((mcp) => aggregateTools({ calc: mcp }));

  const openai = (server: ProviderServer) =>
    new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test-key", maxRetries: 0 });

  it("Chat Completions: tool call, then the final answer built from the MCP tool's result", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) return toolCallsReply([{ id: "call_add", name: "calc__add", args: { a: 2, b: 3 } }]);
      const toolMessage = request.body.messages.find((m: { role: string }) => m.role === "tool");
      return chatReply({ content: `The sum is ${toolMessage.content}.` }, "stop");
    });
    const model = createOpenAIChatModel({ client: openai(provider), model: "gpt-test" });
    const result = await runToolLoop({
      model,
      tools: calc.tools,
      messages: [
        { role: "system", content: "You add." },
        { role: "user", content: "What is 2 + 3?" },
      ],
    });

    expect(result.text).toBe("The sum is 5.");
    expect(result.finishReason).toBe("stop");
    const [first, second] = provider.requests;
    expect(first!.path).toBe("/v1/chat/completions");
    expect(first!.headers.authorization).toBe("Bearer test-key");
    expect(first!.body).toMatchObject({ model: "gpt-test", parallel_tool_calls: true });
    expect(first!.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
      "calc__add",
      "calc__weather_lookup",
      "calc__fail",
      "calc__hang",
    ]);
    expect(first!.body.tools[0]).toEqual({
      type: "function",
      function: {
        name: "calc__add",
        description: "Adds two numbers",
        parameters: expect.objectContaining({
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        }),
      },
    });
    expect(second!.body.messages).toEqual([
      { role: "system", content: "You add." },
      { role: "user", content: "What is 2 + 3?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_add", type: "function", function: { name: "calc__add", arguments: '{"a":2,"b":3}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_add", content: "5" },
    ]);
  });

  it("Responses API (strict tools): parallel calls, structured-only and failing tools reach the model, failures marked", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) {
        return responsesReply([
          {
            type: "function_call",
            id: "fc_1",
            call_id: "c_weather",
            name: "calc__weather_lookup",
            // Strict mode makes the optional "unit" nullable: the model sends null, which the server
            // would refuse; the bridge removes it before the call.
            arguments: '{"city":"Oslo","unit":null}',
            status: "completed",
          },
          {
            type: "function_call",
            id: "fc_2",
            call_id: "c_fail",
            name: "calc__fail",
            arguments: "{}",
            status: "completed",
          },
        ]);
      }
      const outputs = request.body.input.filter(
        (item: { type?: string }) => item.type === "function_call_output",
      );
      return responsesReply([messageItem(outputs.map((o: { output: string }) => o.output).join(" | "))]);
    });
    const model = createOpenAIResponsesModel({ client: openai(provider), model: "gpt-test", strict: "auto" });
    const result = await runToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "Weather in Oslo?" }],
    });

    expect(provider.requests[0]!.path).toBe("/v1/responses");
    expect(provider.requests[0]!.body.tools[1]).toMatchObject({
      type: "function",
      name: "calc__weather_lookup",
      strict: true,
      parameters: {
        required: ["city", "unit"],
        additionalProperties: false,
        properties: { unit: { type: ["string", "null"], enum: ["c", "f", null] } },
      },
    });
    const input = provider.requests[1]!.body.input;
    expect(input.slice(1, 3)).toEqual([
      {
        type: "function_call",
        call_id: "c_weather",
        name: "calc__weather_lookup",
        arguments: '{"city":"Oslo"}',
      },
      { type: "function_call", call_id: "c_fail", name: "calc__fail", arguments: "{}" },
    ]);
    expect(input[3]).toEqual({
      type: "function_call_output",
      call_id: "c_weather",
      output: '{"city":"Oslo","tempC":21}',
    });
    expect(input[4].output).toMatch(/^Error: .*disk full/);
    expect(result.text).toMatch(/^\{"city":"Oslo","tempC":21\} \| Error: .*disk full/);
  });

  it("mcpTools and mcpToolsRespond drive hand-written loops with the SDK's own calls", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (request.path === "/v1/chat/completions") {
        if (index === 0) return toolCallsReply([{ id: "k1", name: "add", args: { a: 40, b: 2 } }]);
        return chatReply({ content: `answer ${request.body.messages.at(-1).content}` }, "stop");
      }
      if (index === 2) {
        return responsesReply([
          {
            type: "function_call",
            id: "fc_9",
            call_id: "r1",
            name: "add",
            arguments: '{"a":1,"b":"x"}',
            status: "completed",
          },
        ]);
      }
      return responsesReply([messageItem(`saw ${request.body.input.at(-1).output}`)]);
    });
    const client = openai(provider);

    const chat = await mcpTools(calc.mcp, { strict: "auto", include: ["add"] });
    expect(chat.tools).toHaveLength(1);
    expect(chat.tools[0]!.function.strict).toBe(true);
    const messages: any[] = [{ role: "user", content: "40 + 2?" }];
    const first = await client.chat.completions.create({ model: "gpt-test", messages, tools: chat.tools });
    messages.push(first.choices[0]!.message, ...(await chat.run(first.choices[0]!.message)));
    const second = await client.chat.completions.create({ model: "gpt-test", messages, tools: chat.tools });
    expect(second.choices[0]!.message.content).toBe("answer 42");
    expect(provider.requests[0]!.body.tools[0].function).toMatchObject({
      strict: true,
      parameters: { additionalProperties: false },
    });

    const respond = await mcpToolsRespond(calc.mcp, { include: ["add"] });
    const r1 = await client.responses.create({ model: "gpt-test", input: "1 + x?", tools: respond.tools });
    const outputs = await respond.run(r1);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]!.output).toMatch(/^Error: /); // the server refused "x" for a number
    const r2 = await client.responses.create({
      model: "gpt-test",
      input: [...r1.output, ...outputs] as any,
      tools: respond.tools,
    });
    expect(r2.output_text).toBe(`saw ${outputs[0]!.output}`);
  });

  it("maxSteps bounds the model calls; an abort during the model request rejects with the reason", async () => {
    const provider = await calc.startProvider((_request, index) => {
      if (index < 2)
        return toolCallsReply([{ id: `s${index}`, name: "calc__add", args: { a: index, b: 1 } }]);
      return "hold";
    });
    const model = createOpenAIChatModel({ client: openai(provider), model: "gpt-test" });
    const bounded = await runToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "loop" }],
      maxSteps: 2,
    });
    expect(bounded.finishReason).toBe("max-steps");
    expect(provider.requests).toHaveLength(2);
    expect(bounded.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "s1", content: "2" });

    const controller = new AbortController();
    const reason = new Error("stop now");
    const run = runToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "hang" }],
      signal: controller.signal,
    });
    await provider.received(3);
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    await provider.dropped; // the SDK's HTTP request was really cancelled
  });
});
