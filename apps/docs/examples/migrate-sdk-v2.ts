// Migrating, the "before" in the official SDK v2 (`@modelcontextprotocol/server` and `/client`): the same
// server and client as migrate-sdk-v1.ts (v2 takes a zod object as `inputSchema`). The same program in
// mcpkit is migrate-mcpkit.ts; the three print the same lines.
// Run: pnpm --filter @mcpkit/docs example examples/migrate-sdk-v2.ts
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const server = new McpServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "forecast",
  { description: "Tomorrow's weather", inputSchema: z.object({ city: z.string() }) },
  async ({ city }) => ({ content: [{ type: "text", text: `${city}: sunny, 24 °C` }] }),
);
server.registerResource("cities", "weather://cities", { mimeType: "text/plain" }, async (uri) => ({
  contents: [{ uri: uri.href, text: "Lisbon, Porto" }],
}));

const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: "host", version: "1.0.0" });
await client.connect(clientSide);

const { tools } = await client.listTools();
console.log("tools:", tools.map((tool) => tool.name).join(", "));
const result = await client.callTool({ name: "forecast", arguments: { city: "Lisbon" } });
const [block] = result.content as Array<{ type: string; text?: string }>;
console.log("forecast →", block?.text, "| isError:", result.isError === true);
const { contents } = await client.readResource({ uri: "weather://cities" });
console.log("cities →", "text" in contents[0]! ? contents[0].text : "");
await client.close();
