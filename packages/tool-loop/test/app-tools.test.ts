import { PassThrough } from "node:stream";
import { createClient } from "@mcpkit/client";
import { createServer } from "@mcpkit/server";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { describe, expect, it } from "vitest";
import {
  aggregateTools,
  createScriptedModel,
  type LoopEvent,
  runToolLoop,
  toolUiResource,
} from "../src/index.js";

// A real server whose tools carry MCP Apps metadata: a view tool, an app-only tool, a model-only tool.
async function appServerClient() {
  const server = createServer({ name: "apps", version: "1" });
  const view = "ui://apps/view";
  server.registerTool(
    "show",
    { _meta: { ui: { resourceUri: view, visibility: ["model", "app"] } } },
    () => "shown",
  );
  server.registerTool(
    "refresh",
    { _meta: { ui: { resourceUri: view, visibility: ["app"] } } },
    () => "refreshed",
  );
  server.registerTool(
    "peek",
    { _meta: { ui: { resourceUri: view, visibility: ["model"] } } },
    () => "peeked",
  );
  server.registerTool("plain", {}, () => "plain");
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  await server.connect(createStreamTransport({ readable: toServer, writable: toClient }));
  const client = createClient({ name: "t", version: "1" });
  await client.connect(createStreamTransport({ readable: toClient, writable: toServer }));
  const close = async () => {
    await client.close();
    await server.close();
  };
  return { client, close };
}

describe("MCP Apps tools in the loop", () => {
  it("hides app-only tools from the model; tool-call and tool-result events carry the tool's view", async () => {
    const { client, close } = await appServerClient();
    try {
      const tools = await aggregateTools({ apps: client });
      expect(tools.tools.map((t) => t.name)).toEqual(["apps__show", "apps__peek", "apps__plain"]);
      const model = createScriptedModel([
        { toolCalls: [{ name: "apps__show" }, { name: "apps__refresh" }] },
        { text: "done" },
      ]);
      const events: LoopEvent[] = [];
      await runToolLoop({
        model,
        tools,
        messages: [{ role: "user", content: "show" }],
        onEvent: (e) => events.push(e),
      });
      expect(model.requests[0]?.tools.map((t) => t.name)).toEqual([
        "apps__show",
        "apps__peek",
        "apps__plain",
      ]);
      const viewOf = (type: "tool-call" | "tool-result") =>
        // Sorted by tool: the calls of one turn run concurrently, so their results may come in any order.
        events.flatMap((e) => (e.type === type ? [[e.call.name, e.uiResource]] : [])).sort();
      const expected = [
        ["apps__refresh", undefined],
        ["apps__show", "ui://apps/view"],
      ];
      expect(viewOf("tool-call")).toEqual(expected);
      expect(viewOf("tool-result")).toEqual(expected);
      const shown = events.find((e) => e.type === "tool-call" && e.call.name === "apps__show");
      expect(shown?.type === "tool-call" && toolUiResource(shown.info.descriptor)).toBe("ui://apps/view");
      const refused = events.find((e) => e.type === "tool-result" && e.call.name === "apps__refresh");
      expect(refused?.type === "tool-result" && refused.result.isError).toBe(true);
    } finally {
      await close();
    }
  });
});
