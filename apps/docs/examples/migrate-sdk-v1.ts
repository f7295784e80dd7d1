// Migrating, the "before" in the official SDK v1 (`@modelcontextprotocol/sdk`): a server with one tool and
// one resource, and a client that lists and calls them over the SDK's in-memory transport. The same program
// in mcpkit is migrate-mcpkit.ts; the two print the same lines.
// Run: pnpm --filter @mcpkit/docs example examples/migrate-sdk-v1.ts
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "forecast",
  { description: "Tomorrow's weather", inputSchema: { city: z.string() } },
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
