import { describe, expect, it } from "vitest";
import { createScriptedModel } from "./scripted-model.js";

describe("createScriptedModel", () => {
  it("fills {{result:<tool>}} from the latest result of that tool in the transcript", async () => {
    const model = createScriptedModel([{ text: "weather: {{result:weather}}; last: {{result}}" }]);
    const response = await model.generate({
      tools: [],
      parallelToolCalls: true,
      messages: [
        { role: "tool", toolCallId: "1", name: "weather", content: "rain", isError: false },
        { role: "assistant", content: "", toolCalls: [{ id: "2", name: "time", arguments: {} }] },
        { role: "tool", toolCallId: "2", name: "time", content: "noon", isError: false },
      ],
    });
    expect(response).toEqual({ text: "weather: rain; last: noon", toolCalls: [] });
    expect(model.remaining).toBe(0);
  });
});
