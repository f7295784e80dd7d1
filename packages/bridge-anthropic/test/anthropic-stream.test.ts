// Streamed tool loops with the real `@anthropic-ai/sdk` (`stream: true`) against the loopback scripted
// provider sending server-sent events; the tools run on a real MCP server over stdio.
import Anthropic from "@anthropic-ai/sdk";
import { aggregateTools, runToolLoop, streamToolLoop } from "@mcpkit/tool-loop";
import { describe, expect, it } from "vitest";
import { briefEvent } from "../../tool-loop/test/support/brief-event.js";
import { useCalcFixture } from "../../tool-loop/test/support/calc-fixture.js";
import type { ProviderServer } from "../../tool-loop/test/support/provider-server.js";
import { createAnthropicModel } from "../src/index.js";

const start = {
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 0 },
  },
};
const end = (stopReason: string) => [
  {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 1 },
  },
  { type: "message_stop" },
];
const block = (index: number, contentBlock: unknown, deltas: unknown[]) => [
  { type: "content_block_start", index, content_block: contentBlock },
  ...deltas.map((delta) => ({ type: "content_block_delta", index, delta })),
  { type: "content_block_stop", index },
];

describe("bridge-anthropic streaming with the real @anthropic-ai/sdk and a real MCP server", () => {
  const calc = useCalcFixture((mcp) => aggregateTools({ calc: mcp }));

  const anthropic = (server: ProviderServer) =>
    new Anthropic({ baseURL: server.origin, apiKey: "test-key", maxRetries: 0 });

  it("thinking streamed and sent back with its signature; tool input assembled from pieces; events in order", async () => {
    const provider = await calc.startProvider((request, index) => {
      if (index === 0) {
        return {
          sse: [
            start,
            ...block(0, { type: "thinking", thinking: "", signature: "" }, [
              { type: "thinking_delta", thinking: "Two numbers, " },
              { type: "thinking_delta", thinking: "so add." },
              { type: "signature_delta", signature: "sig-abc" },
            ]),
            ...block(1, { type: "text", text: "" }, [{ type: "text_delta", text: "Adding." }]),
            ...block(2, { type: "tool_use", id: "toolu_1", name: "calc__add", input: {} }, [
              { type: "input_json_delta", partial_json: '{"a": 2' },
              { type: "input_json_delta", partial_json: ', "b": 3}' },
            ]),
            ...end("tool_use"),
          ],
        };
      }
      const result = request.body.messages.at(-1).content[0].content;
      return {
        sse: [
          start,
          ...block(0, { type: "text", text: "" }, [
            { type: "text_delta", text: "It is " },
            { type: "text_delta", text: `${result}.` },
          ]),
          ...end("end_turn"),
        ],
      };
    });
    const model = createAnthropicModel({
      client: anthropic(provider),
      model: "claude-test",
      request: { thinking: { type: "enabled", budget_tokens: 1024 } },
    });
    const stream = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "2 + 3?" }],
    });
    const events: string[] = [];
    for await (const event of stream) events.push(briefEvent(event));
    expect(events).toEqual([
      "reasoning-delta:Two numbers, ",
      "reasoning-delta:so add.",
      "text-delta:Adding.",
      'input:{"a": 2',
      'input:, "b": 3}',
      'call:calc__add:{"a":2,"b":3}',
      "result:5",
      "step:0",
      "text-delta:It is ",
      "text-delta:5.",
      "step:1",
      "finish:stop",
    ]);
    expect(provider.requests[0]!.body).toMatchObject({ stream: true, thinking: { type: "enabled" } });
    expect(provider.requests[1]!.body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Two numbers, so add.", signature: "sig-abc" },
        { type: "text", text: "Adding." },
        { type: "tool_use", id: "toolu_1", name: "calc__add", input: { a: 2, b: 3 } },
      ],
    });
    expect((await stream.result).text).toBe("It is 5.");
  });

  it("thinking blocks round-trip without streaming too", async () => {
    const provider = await calc.startProvider((_request, index) => ({
      json: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content:
          index === 0
            ? [
                { type: "redacted_thinking", data: "opaque" },
                { type: "tool_use", id: "t1", name: "calc__add", input: { a: 1, b: 2 } },
              ]
            : [{ type: "text", text: "3" }],
        stop_reason: index === 0 ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    }));
    const model = createAnthropicModel({ client: anthropic(provider), model: "claude-test" });
    const result = await runToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "1+2" }],
    });
    expect(result.text).toBe("3");
    expect(provider.requests[0]!.body.stream).toBeUndefined(); // runToolLoop without onEvent: generate
    expect(provider.requests[1]!.body.messages[1].content[0]).toEqual({
      type: "redacted_thinking",
      data: "opaque",
    });
  });

  it("an abort mid-stream rejects with the reason and drops the provider request", async () => {
    const provider = await calc.startProvider(() => ({
      sse: [
        start,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hmm" } },
      ],
      hold: true,
    }));
    const model = createAnthropicModel({ client: anthropic(provider), model: "claude-test" });
    const controller = new AbortController();
    const reason = new Error("stop");
    const stream = streamToolLoop({
      model,
      tools: calc.tools,
      messages: [{ role: "user", content: "hi" }],
      signal: controller.signal,
    });
    await expect(
      (async () => {
        for await (const event of stream) if (event.type === "text-delta") controller.abort(reason);
      })(),
    ).rejects.toBe(reason);
    await provider.dropped;
  });
});
