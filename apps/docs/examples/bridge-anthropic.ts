// The Anthropic bridge: MCP tools in a Messages API tool loop. `createAnthropicModel` adapts an
// `@anthropic-ai/sdk` client YOU create; tool failures reach the model as `tool_result` with `is_error`.
// For a hand-written loop, `mcpTools(client)` gives `{ tools, run(message) }`.
// Needs ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL, ANTHROPIC_MODEL); the tests point it at a
// loopback scripted provider.
// Run: ANTHROPIC_API_KEY=… pnpm --filter @mcpkit/docs example examples/bridge-anthropic.ts
import Anthropic from "@anthropic-ai/sdk";
import { createAnthropicModel } from "@mcpkit/bridge-anthropic";
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { aggregateTools, runToolLoop } from "@mcpkit/tool-loop";
import { z } from "zod";

const server = createServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "get_forecast",
  { description: "Tomorrow's forecast for a city", inputSchema: z.object({ city: z.string() }) },
  ({ city }) => `${city}: sunny, 24 °C`,
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const weather = createClient({ name: "agent", version: "1.0.0" });
await weather.connect(clientSide);
try {
  const model = createAnthropicModel({
    client: new Anthropic({ maxRetries: 0 }), // reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-5",
    maxTokens: 1024,
  });
  const { text, steps } = await runToolLoop({
    model,
    tools: await aggregateTools({ weather }),
    messages: [
      { role: "system", content: "Answer from the tools only." },
      { role: "user", content: "What is the weather in Lisbon tomorrow?" },
    ],
  });
  for (const step of steps) for (const r of step.toolResults) console.log(`tool ${r.name} → ${r.content}`);
  console.log("answer:", text);
} finally {
  await weather.close();
  await server.close();
}
