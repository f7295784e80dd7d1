// The Vercel AI SDK bridge: `mcpToolSet(client)` turns MCP tools into an AI SDK `ToolSet` for
// `generateText` / `streamText`; each tool executes over MCP and resolves `{ content, isError, structured? }`.
// The AI SDK runs its own loop (`stopWhen`); `ai` is not imported by the bridge.
// Needs OPENAI_API_KEY (and optionally OPENAI_BASE_URL, OPENAI_MODEL); the tests point it at a loopback
// scripted provider.
// Run: OPENAI_API_KEY=… pnpm --filter @mcpkit/docs example examples/bridge-ai-sdk.ts
import { createOpenAI } from "@ai-sdk/openai";
import { mcpToolSet } from "@mcpkit/bridge-ai-sdk";
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { generateText, stepCountIs } from "ai";
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
  const tools = await mcpToolSet({ weather }); // { weather__get_forecast: … }
  const openai = createOpenAI(); // reads OPENAI_API_KEY and OPENAI_BASE_URL
  const result = await generateText({
    model: openai.chat(process.env.OPENAI_MODEL ?? "gpt-4.1-mini"),
    tools,
    stopWhen: stepCountIs(5), // the AI SDK stops after one step unless told otherwise
    maxRetries: 0,
    prompt: "What is the weather in Lisbon tomorrow?",
  });
  for (const step of result.steps) {
    for (const part of step.toolResults) console.log(`tool ${part.toolName} →`, JSON.stringify(part.output));
  }
  console.log("answer:", result.text);
} finally {
  await weather.close();
  await server.close();
}
