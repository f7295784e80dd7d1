import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the public surface", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ANTHROPIC_REASONING_PROVIDER",
      "anthropicToolResult",
      "createAnthropicModel",
      "mcpTools",
      "readAnthropicReasoning",
      "readAnthropicStream",
      "readAnthropicText",
      "readAnthropicToolCalls",
      "toAnthropicMessages",
      "toAnthropicTools",
    ]
  `);
});
