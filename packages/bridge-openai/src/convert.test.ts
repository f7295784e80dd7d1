import type { LoopMessage } from "@mcpkit/tool-loop";
import { describe, expect, it } from "vitest";
import {
  chatCompletionsToolMessage,
  readChatCompletionsToolCalls,
  toChatCompletionsMessages,
  toChatCompletionsTools,
} from "./chat-completions.js";
import { toResponsesInput, toResponsesTools } from "./responses.js";
import { readResponsesText, readResponsesToolCalls } from "./responses-read.js";

const tools = [
  {
    name: "calc__add",
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a"],
    },
  },
  { name: "ping", title: "Ping" },
  { name: "free", inputSchema: { type: "object", additionalProperties: { type: "string" } } },
];

const transcript: LoopMessage[] = [
  { role: "system", content: "be brief" },
  { role: "user", content: "add" },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "c1", name: "calc__add", arguments: { a: 1, b: 2 } },
      { id: "c2", name: "ping", arguments: "{oops" },
    ],
  },
  { role: "tool", toolCallId: "c1", name: "calc__add", content: "3", isError: false },
  { role: "tool", toolCallId: "c2", name: "ping", content: "bad arguments", isError: true },
  { role: "assistant", content: "3" },
];

describe("Chat Completions translation", () => {
  it("converts tools, with strict off, on where possible ('auto'), or throwing (true)", () => {
    expect(toChatCompletionsTools(tools)).toEqual([
      {
        type: "function",
        function: { name: "calc__add", description: "Adds two numbers", parameters: tools[0]!.inputSchema },
      },
      {
        type: "function",
        function: { name: "ping", description: "Ping", parameters: { type: "object", properties: {} } },
      },
      { type: "function", function: { name: "free", description: "", parameters: tools[2]!.inputSchema } },
    ]);
    const auto = toChatCompletionsTools(tools, { strict: "auto" });
    expect(auto.map((tool) => tool.function.strict)).toEqual([true, true, undefined]);
    expect(auto[0]!.function.parameters).toMatchObject({ required: ["a", "b"], additionalProperties: false });
    expect(() => toChatCompletionsTools(tools, { strict: true })).toThrow(/free-form/);
  });

  it("reads tool calls (JSON parsed, bad JSON kept as text, custom calls skipped) and writes the transcript", () => {
    const calls = readChatCompletionsToolCalls({
      content: null,
      tool_calls: [
        { id: "a", type: "function", function: { name: "x", arguments: '{"n":1}' } },
        { id: "b", type: "function", function: { name: "y", arguments: "not json" } },
        { id: "c", type: "function", function: { name: "z", arguments: "" } },
        { id: "d", type: "custom" },
      ],
    });
    expect(calls).toEqual([
      { id: "a", name: "x", arguments: { n: 1 } },
      { id: "b", name: "y", arguments: "not json" },
      { id: "c", name: "z", arguments: {} },
    ]);
    expect(toChatCompletionsMessages(transcript)).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "add" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "calc__add", arguments: '{"a":1,"b":2}' } },
          { id: "c2", type: "function", function: { name: "ping", arguments: "{oops" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "3" },
      { role: "tool", tool_call_id: "c2", content: "Error: bad arguments" },
      { role: "assistant", content: "3" },
    ]);
    expect(chatCompletionsToolMessage({ toolCallId: "q", content: "boom", isError: true })).toEqual({
      role: "tool",
      tool_call_id: "q",
      content: "Error: boom",
    });
  });
});

describe("Responses API translation", () => {
  it("converts tools with an explicit strict flag", () => {
    expect(toResponsesTools(tools.slice(0, 1))).toEqual([
      {
        type: "function",
        name: "calc__add",
        description: "Adds two numbers",
        parameters: tools[0]!.inputSchema,
        strict: false,
      },
    ]);
    expect(toResponsesTools(tools.slice(0, 1), { strict: true })[0]!.strict).toBe(true);
  });

  it("reads function calls and text, and writes the transcript as input items", () => {
    const response = {
      output: [
        { type: "reasoning" },
        {
          type: "message",
          content: [
            { type: "output_text", text: "Let me " },
            { type: "output_text", text: "add." },
          ],
        },
        { type: "function_call", call_id: "call_1", name: "calc__add", arguments: '{"a":5}' },
      ],
    };
    expect(readResponsesToolCalls(response)).toEqual([
      { id: "call_1", name: "calc__add", arguments: { a: 5 } },
    ]);
    expect(readResponsesText(response)).toBe("Let me add.");
    expect(toResponsesInput(transcript)).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "add" },
      { type: "function_call", call_id: "c1", name: "calc__add", arguments: '{"a":1,"b":2}' },
      { type: "function_call", call_id: "c2", name: "ping", arguments: "{oops" },
      { type: "function_call_output", call_id: "c1", output: "3" },
      { type: "function_call_output", call_id: "c2", output: "Error: bad arguments" },
      { role: "assistant", content: "3" },
    ]);
  });
});
