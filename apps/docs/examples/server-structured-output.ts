// Structured output: a tool with an `outputSchema` returns an object; the server sends it as
// `structuredContent` (plus its JSON as text for older clients) and checks it against the schema.
// The client checks it again and hands it over as `result.structured`.
// Run: pnpm --filter @mcpkit/docs example examples/server-structured-output.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { z } from "zod";

const server = createServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "forecast",
  {
    description: "Tomorrow's forecast for a city",
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({
      city: z.string(),
      high: z.number(),
      low: z.number(),
      sky: z.enum(["sun", "rain"]),
    }),
  },
  // Any JSON object that is not a content list becomes structuredContent.
  ({ city }) => ({ city, high: 24, low: 15, sky: "sun" }),
);
server.registerTool(
  "report",
  { outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
  // A full CallToolResult chooses its own text next to the structured content.
  () => ({ content: [{ type: "text", text: "All systems go." }], structuredContent: { ok: true } }),
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientSide);
try {
  const [tool] = await client.listTools();
  console.log("outputSchema:", JSON.stringify(tool?.outputSchema));
  const result = await client.callTool("forecast", { city: "Lisbon" });
  console.log("structured:", JSON.stringify(result.structured));
  console.log("content:", result.content);
  const report = await client.callTool("report");
  console.log("report:", report.content, JSON.stringify(report.structured));
} finally {
  await client.close();
  await server.close();
}
