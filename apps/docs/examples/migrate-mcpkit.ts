// Migrating, the "after": migrate-sdk-v1.ts and migrate-sdk-v2.ts in mcpkit. A handler returns what it
// means (a string becomes a text block), a result is typed (`content` is the text when there is only text),
// and `connect(server)` joins a client to a server of this process — both eras, no transport to wire.
// Run: pnpm --filter @mcpkit/docs example examples/migrate-mcpkit.ts
import { connect, createServer } from "mcpkit";
import { z } from "zod";

const server = createServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "forecast",
  { description: "Tomorrow's weather", inputSchema: z.object({ city: z.string() }) },
  async ({ city }) => `${city}: sunny, 24 °C`,
);
server.registerResource(
  "weather://cities",
  { name: "cities", mimeType: "text/plain" },
  () => "Lisbon, Porto",
);

await using client = await connect(server);

const tools = await client.listTools();
console.log("tools:", tools.map((tool) => tool.name).join(", "));
const result = await client.callTool("forecast", { city: "Lisbon" });
console.log("forecast →", result.content, "| isError:", result.isError);
const { contents } = await client.readResource("weather://cities");
console.log("cities →", "text" in contents[0]! ? contents[0].text : "");
