import { describe, expect, it } from "vitest";
import { createOpenAIChatModel, createOpenAIResponsesModel } from "./index.js";

// The tool loop names its GenAI spans after these (`chat gpt-4o-mini`, gen_ai.provider.name "openai").
describe("what the OpenAI models say they are", () => {
  it("Chat Completions and Responses models name their provider and model id", () => {
    const client = {} as never;
    const chat = createOpenAIChatModel({ client, model: "gpt-4o-mini" });
    const responses = createOpenAIResponsesModel({ client, model: "gpt-4.1" });
    expect([chat.provider, chat.modelId]).toEqual(["openai", "gpt-4o-mini"]);
    expect([responses.provider, responses.modelId]).toEqual(["openai", "gpt-4.1"]);
  });
});
