// A streamed tool loop: `streamToolLoop` hands out every event as it happens — reasoning and text
// deltas, a call's argument pieces, the call with its arguments, its progress and result, step ends
// and the finish — and `result` holds the outcome. Reasoning blocks stay on their assistant turn, so
// the bridges send them back (Anthropic thinking with its signature, OpenAI reasoning items). Leaving
// the `for await` early aborts the run and cancels the MCP calls in flight.
// Run: pnpm --filter @mcpkit/docs example examples/tool-loop-streaming.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { aggregateTools, createScriptedModel, streamToolLoop } from "@mcpkit/tool-loop";
import { z } from "zod";

const server = createServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "forecast",
  { inputSchema: z.object({ city: z.string() }) },
  async ({ city }, context) => {
    await context.progress?.(1, 2);
    return `${city}: sunny, 24 °C`;
  },
);
const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const weather = createClient({ name: "agent", version: "1.0.0" });
await weather.connect(clientSide);

const tools = await aggregateTools({ weather });
// With a real provider: createOpenAIChatModel / createOpenAIResponsesModel / createAnthropicModel /
// createAiSdkModel — each streams through its SDK's streaming API.
const model = createScriptedModel([
  {
    reasoning: "Need the forecast first.",
    text: "Checking.",
    toolCalls: [{ name: "weather__forecast", arguments: { city: "Lisbon" } }],
  },
  { text: "It will be {{result}}." },
]);
const stream = streamToolLoop({ model, tools, messages: [{ role: "user", content: "Weather in Lisbon?" }] });
for await (const event of stream) {
  switch (event.type) {
    case "reasoning-delta":
      console.log(`[thinking] ${event.text}`);
      break;
    case "text-delta":
      console.log(`[text] ${JSON.stringify(event.text)}`);
      break;
    case "tool-input-delta":
      console.log(`[arguments] ${event.delta}`);
      break;
    case "tool-call":
      console.log(`[call] ${event.call.name} ${JSON.stringify(event.call.arguments)}`);
      break;
    case "tool-progress":
      console.log(`[progress] ${event.progress.progress}/${event.progress.total}`);
      break;
    case "tool-result":
      console.log(`[result] ${event.result.content}`);
      break;
    case "step-finish":
      console.log(`[step ${event.step} done]`);
      break;
    case "finish":
      console.log(`[finish] ${event.result.finishReason}`);
  }
}
const result = await stream.result;
console.log("answer:", result.text);
console.log(
  "reasoning kept:",
  JSON.stringify(result.messages[1]?.role === "assistant" && result.messages[1].reasoning),
);
await weather.close();
await server.close();
