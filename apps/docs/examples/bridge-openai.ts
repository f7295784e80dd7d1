// The OpenAI bridge: MCP tools in an OpenAI tool loop. `createOpenAIChatModel` adapts an `openai`
// client YOU create (Chat Completions; `createOpenAIResponsesModel` for the Responses API) to the tool
// loop. In the other direction, `registerOpenAITool` serves an OpenAI function tool over MCP.
// Needs OPENAI_API_KEY (and optionally OPENAI_BASE_URL, OPENAI_MODEL); the tests point it at a loopback
// scripted provider.
// Run: OPENAI_API_KEY=… pnpm --filter @mcpkit/docs example examples/bridge-openai.ts
import { createOpenAIChatModel, registerOpenAITool } from "@mcpkit/bridge-openai";
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { aggregateTools, runToolLoop } from "@mcpkit/tool-loop";
import OpenAI from "openai";

// An MCP server whose tool is written as an OpenAI function definition.
const server = createServer({ name: "weather", version: "1.0.0" });
registerOpenAITool(
  server,
  {
    type: "function",
    function: {
      name: "get_forecast",
      description: "Tomorrow's forecast for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
  async ({ city }) => `${String(city)}: sunny, 24 °C`,
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const weather = createClient({ name: "agent", version: "1.0.0" });
await weather.connect(clientSide);
try {
  const tools = await aggregateTools({ weather });
  const model = createOpenAIChatModel({
    client: new OpenAI({ maxRetries: 0 }), // reads OPENAI_API_KEY and OPENAI_BASE_URL
    model: process.env.OPENAI_MODEL ?? "gpt-4.1-mini",
    strict: "auto", // strict function schemas where the schema allows it
  });
  const { text, steps } = await runToolLoop({
    model,
    tools,
    messages: [{ role: "user", content: "What is the weather in Lisbon tomorrow?" }],
  });
  for (const step of steps) for (const r of step.toolResults) console.log(`tool ${r.name} → ${r.content}`);
  console.log("answer:", text);
} finally {
  await weather.close();
  await server.close();
}
