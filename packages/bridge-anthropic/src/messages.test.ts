import { describe, expect, it } from "vitest";
import { toAnthropicMessages, toAnthropicTools } from "./messages.js";
import { readAnthropicText, readAnthropicToolCalls } from "./messages-read.js";

describe("Messages API translation", () => {
  it("lifts system messages and groups tool results with a following user message", () => {
    const conversation = toAnthropicMessages([
      { role: "system", content: "one" },
      { role: "system", content: "two" },
      { role: "user", content: "q" },
      { role: "assistant", content: "", toolCalls: [{ id: "a", name: "x", arguments: { n: 1 } }] },
      { role: "tool", toolCallId: "a", name: "x", content: "r", isError: false },
      { role: "user", content: "and then?" },
      { role: "assistant", content: "fin" },
    ]);
    expect(conversation).toEqual({
      system: "one\n\ntwo",
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content: [{ type: "tool_use", id: "a", name: "x", input: { n: 1 } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "a", content: "r" },
            { type: "text", text: "and then?" },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "fin" }] },
      ],
    });
    expect(toAnthropicMessages([{ role: "user", content: "x" }]).system).toBeUndefined();
  });

  it("converts tools (object schema enforced) and reads tool_use and text blocks", () => {
    expect(
      toAnthropicTools([
        { name: "t", inputSchema: { properties: { q: { type: "string" } } } },
        { name: "u" },
      ]),
    ).toEqual([
      { name: "t", description: "", input_schema: { type: "object", properties: { q: { type: "string" } } } },
      { name: "u", description: "", input_schema: { type: "object", properties: {} } },
    ]);
    const message = {
      content: [
        { type: "thinking", thinking: "..." },
        { type: "text", text: "a" },
        { type: "tool_use", id: "1", name: "t", input: { q: "z" } },
        { type: "text", text: "b" },
      ],
    };
    expect(readAnthropicToolCalls(message)).toEqual([{ id: "1", name: "t", arguments: { q: "z" } }]);
    expect(readAnthropicText(message)).toBe("ab");
  });
});
