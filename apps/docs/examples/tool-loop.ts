// The tool loop: put the tools of several MCP servers in front of a model, run the calls it asks for,
// feed the results back, until it answers. `aggregateTools` prefixes names per server ("weather__…")
// and maps them back; `runToolLoop` is provider-neutral — the model is an interface each bridge
// implements. `createScriptedModel` is a deterministic model for tests and demos (no keys, no network).
// Run: pnpm --filter @mcpkit/docs example examples/tool-loop.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer, type Server } from "@mcpkit/server";
import { aggregateTools, createScriptedModel, runToolLoop } from "@mcpkit/tool-loop";
import { z } from "zod";

const weather = createServer({ name: "weather", version: "1.0.0" });
weather.registerTool(
  "forecast",
  { inputSchema: z.object({ city: z.string() }) },
  ({ city }) => `${city}: sunny, 24 °C`,
);
const packing = createServer({ name: "packing", version: "1.0.0" });
packing.registerTool("suggest", { inputSchema: z.object({ weather: z.string() }) }, ({ weather: w }) =>
  w.includes("sunny") ? "sunscreen, hat" : "umbrella",
);

async function connectInMemory(server: Server) {
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const client = createClient({ name: "agent", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const clients = { weather: await connectInMemory(weather), packing: await connectInMemory(packing) };
try {
  const tools = await aggregateTools(clients); // keyed by prefix
  console.log("tools:", tools.tools.map((t) => t.name).join(", "));

  // Swap for createOpenAIChatModel / createAnthropicModel (see the bridge examples).
  const model = createScriptedModel([
    { toolCalls: [{ name: "weather__forecast", arguments: { city: "Lisbon" } }] },
    { toolCalls: [{ name: "packing__suggest", arguments: { weather: "sunny" } }] },
    { text: "Pack {{result}} for Lisbon." },
  ]);
  const result = await runToolLoop({
    model,
    tools,
    messages: [
      { role: "system", content: "You plan trips." },
      { role: "user", content: "What should I pack for Lisbon?" },
    ],
    maxSteps: 5,
    onStep: (step) => {
      for (const r of step.toolResults) console.log(`step ${step.index}: ${r.name} → ${r.content}`);
    },
  });
  console.log("answer:", result.text, `| finishReason ${result.finishReason}, ${result.steps.length} steps`);
} finally {
  await Promise.all(Object.values(clients).map((c) => c.close()));
  await weather.close();
  await packing.close();
}
