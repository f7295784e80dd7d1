import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the public surface", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_MAX_STEPS",
      "MAX_TOOL_NAME_LENGTH",
      "PROVIDER_TOOL_NAME_PATTERN",
      "ToolNameCollisionError",
      "UnknownToolError",
      "aggregateTools",
      "createScriptedModel",
      "executeToolCall",
      "isModelVisible",
      "isProviderToolName",
      "isRefreshable",
      "isToolbox",
      "runToolLoop",
      "sanitizeToolName",
      "streamToolLoop",
      "toModelTools",
      "toToolbox",
      "toolResultMessage",
      "toolResultText",
      "toolUiResource",
    ]
  `);
});
