import { describe, expect, it } from "vitest";
import { aggregateTools, createScriptedModel, runToolLoop, type ToolResultMessage } from "../src/index.js";
import { connectCalcServer } from "./support/calc-server.js";

describe("a tool list that changes mid-loop, on a real MCP server over stdio", () => {
  it("the next step offers the new list; a vanished tool answers the model with an error", async () => {
    const client = await connectCalcServer({ fixture: "live" });
    try {
      const tools = await aggregateTools({ live: client }, { live: true });
      const model = createScriptedModel([
        { toolCalls: [{ name: "live__unlock" }] },
        { toolCalls: [{ name: "live__secret" }, { name: "live__unlock" }] },
        { text: "{{results}}" },
      ]);
      const changed: string[][] = [];
      const result = await runToolLoop({
        model,
        tools,
        messages: [{ role: "user", content: "find the secret" }],
        onEvent: (event) => {
          if (event.type === "tools-changed") changed.push([...event.tools]);
        },
      });
      expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
        ["live__stay", "live__unlock"],
        ["live__stay", "live__secret"],
        ["live__stay", "live__secret"],
      ]);
      expect(changed).toEqual([["live__stay", "live__secret"]]);
      const sent = model.requests[2]!.messages.filter((m): m is ToolResultMessage => m.role === "tool").slice(
        -2,
      );
      expect(sent.map((m) => [m.content, m.isError])).toEqual([
        ["the secret is 42", false],
        ['Unknown tool "live__unlock". Available tools: live__stay, live__secret', true],
      ]);
      expect(result.finishReason).toBe("stop");
      await tools.close();
    } finally {
      await client.close();
    }
  });
});
