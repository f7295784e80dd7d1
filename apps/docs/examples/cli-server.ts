// A small server to point the `mcpkit` CLI at (see README.md, "The CLI"):
//   stdio: mcpkit tools -- npx tsx --conditions=@mcpkit/source examples/cli-server.ts
//   HTTP:  npx tsx --conditions=@mcpkit/source examples/cli-server.ts --http 8080, then
//          mcpkit tools http://127.0.0.1:8080/mcp
import { createServer, serve } from "mcpkit";
import { z } from "zod";

const server = createServer({ name: "cli-demo", version: "1.0.0", instructions: "Try add and slow_count." });
server.registerTool(
  "add",
  { description: "Adds two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => String(a + b),
);
server.registerTool(
  "slow_count",
  { description: "Counts to n with progress", inputSchema: z.object({ n: z.number().int().max(20) }) },
  async ({ n }, ctx) => {
    for (let i = 1; i <= n; i++) await ctx.progress(i, n, `counted ${i}`);
    return `counted to ${n}`;
  },
);
server.registerTool("fail", { description: "Always fails" }, () => {
  throw new Error("this tool always fails");
});
server.registerResource(
  "demo://motd",
  { name: "motd", description: "Message of the day" },
  () => "Have a nice day",
);
server.registerPrompt(
  "haiku",
  { description: "A haiku about a topic", arguments: [{ name: "topic", required: true }] },
  ({ topic }) => `Write a haiku about ${topic}.`,
);

const httpAt = process.argv.indexOf("--http");
if (httpAt >= 0) {
  await serve(server, {
    transport: "http",
    port: Number(process.argv[httpAt + 1] ?? 8080),
    // Print the URL on stdout so a script (or test) can read it.
    onListening: (url) => console.log(url),
  });
} else {
  await serve(server);
}
