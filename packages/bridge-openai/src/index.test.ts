import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the public surface", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "RESPONSES_REASONING_PROVIDER",
      "StrictSchemaError",
      "TOOL_ERROR_PREFIX",
      "canBeStrict",
      "chatCompletionsToolMessage",
      "createOpenAIChatModel",
      "createOpenAIResponsesModel",
      "fromStrictArguments",
      "mcpTools",
      "mcpToolsRespond",
      "readChatCompletionsStream",
      "readChatCompletionsToolCalls",
      "readResponsesReasoning",
      "readResponsesStream",
      "readResponsesText",
      "readResponsesToolCalls",
      "registerOpenAITool",
      "responsesToolOutput",
      "toChatCompletionsMessages",
      "toChatCompletionsTools",
      "toResponsesInput",
      "toResponsesTools",
      "toStrictJsonSchema",
      "toolOutputText",
    ]
  `);
});
