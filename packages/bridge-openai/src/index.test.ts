import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the public surface", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "StrictSchemaError",
      "TOOL_ERROR_PREFIX",
      "canBeStrict",
      "chatCompletionsToolMessage",
      "createOpenAIChatModel",
      "createOpenAIResponsesModel",
      "fromStrictArguments",
      "mcpTools",
      "mcpToolsRespond",
      "readChatCompletionsToolCalls",
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
