// Streamed tool loops with the real `openai` SDK (`stream: true`) against the loopback scripted
// provider sending server-sent events; the tools run on a real MCP server over stdio.
import { aggregateTools, streamToolLoop } from "@mcpkit/tool-loop";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { briefEvent } from "../../tool-loop/test/support/brief-event.js";
import { useCalcFixture } from "../../tool-loop/test/support/calc-fixture.js";
import type { ProviderServer } from "../../tool-loop/test/support/provider-server.js";
import { createOpenAIChatModel, createOpenAIResponsesModel } from "../src/index.js";

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 0,
  model: "scripted",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A streamed assistant turn: text in pieces, then each call's arguments cut in pieces. */
function chatStream(text: string[], calls: { id: string; name: string; pieces: string[] }[] = []) {
  const events: unknown[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of text) events.push(chunk({ content: piece }));
  calls.forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of call.pieces)
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop"));
  return { sse: events, done: true };
}

describe("bridge-openai streaming with the real openai SDK and a real MCP server", () => {
  const calc = useCalcFixture((mcp) => aggregateTools({ calc: mcp }), { captureStderr: true });

  const openai = (server: ProviderServer) =>
    new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test-key", maxRetries: 0 });

  it("Chat Completions: events in order, arguments assembled from pieces, the answer streamed", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0)
        return chatStream(
          ["Let me ", "add."],
          [{ id: "c1", name: "calc__add", pieces: ['{"a"', ":2,", '"b":3}'] }],
        );
      const result = request.body.messages.at(-1).content;
      return chatStream(["The sum ", `is ${result}.`]);
    });
    const model = createOpenAIChatModel({ client: openai(provider), model: "gpt-test" });
    const stream = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "2 + 3?" }],
    });
    const events: string[] = [];
    for await (const event of stream) events.push(briefEvent(event, { detailed: true }));
    expect(events).toEqual([
      "text-delta:Let me ",
      "text-delta:add.",
      'input:{"a"',
      "input::2,",
      'input:"b":3}',
      'call:calc__add:{"a":2,"b":3}:allowed',
      "result:5",
      "step:0",
      "text-delta:The sum ",
      "text-delta:is 5.",
      "step:1",
      "finish:stop",
    ]);
    expect(provider.requests[0]!.body).toMatchObject({ stream: true, parallel_tool_calls: true });
    expect(provider.requests[1]!.body.messages[1]).toEqual({
      role: "assistant",
      content: "Let me add.",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "calc__add", arguments: '{"a":2,"b":3}' } },
      ],
    });
    expect((await stream.result).text).toBe("The sum is 5.");
  });

  it("a denied call and an edited call: the model gets the denial, the server the edited arguments", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) {
        return chatStream(
          [],
          [
            { id: "d", name: "calc__fail", pieces: ["{}"] },
            { id: "e", name: "calc__add", pieces: ['{"a":1,', '"b":1}'] },
          ],
        );
      }
      const results = request.body.messages.filter((m: { role: string }) => m.role === "tool");
      return chatStream([results.map((m: { content: string }) => m.content).join(" | ")]);
    });
    const model = createOpenAIChatModel({ client: openai(provider), model: "gpt-test" });
    const stream = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "go" }],
      approve: (_call, info) =>
        info.tool === "fail" ? { deny: "failing is not allowed" } : { arguments: { a: 40, b: 2 } },
    });
    const calls: string[] = [];
    for await (const event of stream)
      if (event.type === "tool-call") calls.push(briefEvent(event, { detailed: true }));
    expect(calls).toEqual(["call:calc__fail:{}:denied", 'call:calc__add:{"a":40,"b":2}:edited']);
    expect((await stream.result).text).toBe(
      'Error: The call of tool "calc__fail" was denied by the user: failing is not allowed. Do not retry it as it is. | 42',
    );
  });

  it("Responses: reasoning streamed and its item sent back before the function call; arguments from pieces", async () => {
    const reasoningItem = {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "The user wants a sum." }],
      encrypted_content: "opaque-blob",
    };
    const call = { type: "function_call", id: "fc_1", call_id: "k1", name: "calc__add", status: "completed" };
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) {
        return {
          sse: [
            { type: "response.created", sequence_number: 0, response: { id: "resp_1", output: [] } },
            { type: "response.output_item.added", output_index: 0, item: { ...reasoningItem, summary: [] } },
            {
              type: "response.reasoning_summary_text.delta",
              output_index: 0,
              item_id: "rs_1",
              summary_index: 0,
              delta: "The user wants ",
            },
            {
              type: "response.reasoning_summary_text.delta",
              output_index: 0,
              item_id: "rs_1",
              summary_index: 0,
              delta: "a sum.",
            },
            { type: "response.output_item.done", output_index: 0, item: reasoningItem },
            { type: "response.output_item.added", output_index: 1, item: { ...call, arguments: "" } },
            {
              type: "response.function_call_arguments.delta",
              output_index: 1,
              item_id: "fc_1",
              delta: '{"a":20,',
            },
            {
              type: "response.function_call_arguments.delta",
              output_index: 1,
              item_id: "fc_1",
              delta: '"b":22}',
            },
            {
              type: "response.output_item.done",
              output_index: 1,
              item: { ...call, arguments: '{"a":20,"b":22}' },
            },
            { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } },
          ],
        };
      }
      const output = request.body.input.find(
        (item: { type?: string }) => item.type === "function_call_output",
      );
      return {
        sse: [
          {
            type: "response.output_item.added",
            output_index: 0,
            item: { type: "message", id: "m", role: "assistant", content: [] },
          },
          {
            type: "response.output_text.delta",
            output_index: 0,
            item_id: "m",
            content_index: 0,
            delta: `= ${output.output}`,
          },
          {
            type: "response.output_item.done",
            output_index: 0,
            item: {
              type: "message",
              id: "m",
              role: "assistant",
              content: [{ type: "output_text", text: `= ${output.output}` }],
            },
          },
          { type: "response.completed", response: { id: "resp_2", status: "completed", output: [] } },
        ],
      };
    });
    const model = createOpenAIResponsesModel({
      client: openai(provider),
      model: "o-test",
      request: { store: false, include: ["reasoning.encrypted_content"], reasoning: { summary: "auto" } },
    });
    const stream = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "20 + 22?" }],
    });
    const events: string[] = [];
    for await (const event of stream) events.push(briefEvent(event, { detailed: true }));
    expect(events.slice(0, 5)).toEqual([
      "reasoning-delta:The user wants ",
      "reasoning-delta:a sum.",
      'input:{"a":20,',
      'input:"b":22}',
      'call:calc__add:{"a":20,"b":22}:allowed',
    ]);
    expect((await stream.result).text).toBe("= 42");
    const input = provider.requests[1]!.body.input;
    expect(input.slice(1, 3)).toEqual([
      reasoningItem,
      { type: "function_call", call_id: "k1", name: "calc__add", arguments: '{"a":20,"b":22}' },
    ]);
    expect(provider.requests[0]!.body).toMatchObject({
      stream: true,
      include: ["reasoning.encrypted_content"],
    });
  });

  it("cancellation mid-stream drops the provider request; leaving during a tool call cancels it at the server", async () => {
    const provider = await calc.startProvider((_request, index) => {
      if (index === 0) return { ...chatStream(["Thinking"]), done: false, hold: true };
      return chatStream([], [{ id: "h", name: "calc__hang", pieces: ["{}"] }]);
    });
    const model = createOpenAIChatModel({ client: openai(provider), model: "gpt-test" });
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    const stream = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "hi" }],
      signal: controller.signal,
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) {
          seen.push(briefEvent(event, { detailed: true }));
          if (event.type === "text-delta") controller.abort(reason);
        }
      })(),
    ).rejects.toBe(reason);
    expect(seen).toEqual(["text-delta:Thinking"]);
    await provider.dropped; // the SDK's HTTP request was really cancelled

    const started = calc.stderr.next("hang: started");
    const cancelled = calc.stderr.next("hang: cancelled");
    const second = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "hang" }],
    });
    for await (const event of second) {
      if (event.type === "tool-call") {
        await started;
        break; // the reader leaves: the run is aborted and the MCP call cancelled
      }
    }
    await cancelled;
    await expect(second.result).rejects.toMatchObject({ name: "AbortError" });
    expect((await calc.mcp.callTool("add", { a: 1, b: 1 })).content).toBe("2");
  });
});
