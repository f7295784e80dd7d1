// Calls and the typed ToolResult: `callTool` returns { content, structured, isError, parts, meta }.
// A tool's own failure is data (`isError: true`), never a throw; a protocol error (unknown tool, a
// method the server lacks) throws `McpError` with its numeric code. Lists are complete (every page).
// Run: pnpm --filter @mcpkit/docs example examples/client-calls.ts
import { createServer } from "@mcpkit/server";
import { connect, McpError, McpErrorCode, serve, type ToolResult } from "mcpkit";
import { z } from "zod";

const server = createServer({ name: "calc", version: "1.0.0", instructions: "Call add for sums." });
server.registerTool(
  "add",
  { inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
  ({ a, b }) => ({ sum: a + b }),
);
server.registerTool("fail", {}, () => {
  throw new Error("the disk is full");
});
server.registerResource("calc://help", { name: "help" }, () => "add(a, b) returns a + b");
server.registerPrompt(
  "explain",
  { arguments: [{ name: "topic", required: true }] },
  ({ topic }) => `Explain ${topic}`,
);

const http = await serve(server, { transport: "http", port: 0, block: false, onListening() {} });
try {
  await using client = await connect(http.url, { requestTimeout: 10_000 });
  console.log("server:", client.serverInfo?.name, "| instructions:", client.instructions);
  console.log(
    "capabilities:",
    Object.keys(client.capabilities ?? {})
      .sort()
      .join(", "),
  );
  console.log("tools:", (await client.listTools()).map((t) => t.name).join(", "));

  const sum: ToolResult = await client.callTool("add", { a: 40, b: 2 });
  const { sum: value } = sum.structured as { sum: number };
  console.log(
    "add: content",
    sum.content,
    "| structured.sum",
    value,
    "| isError",
    sum.isError,
    "| parts",
    sum.parts.length,
  );

  const failed = await client.callTool("fail");
  console.log("fail: isError", failed.isError, "|", failed.content);

  try {
    await client.callTool("no_such_tool");
  } catch (error) {
    if (error instanceof McpError)
      console.log("unknown tool: McpError", error.code, error.code === McpErrorCode.InvalidParams);
  }

  const help = await client.readResource("calc://help");
  console.log("readResource:", help.contents[0] && "text" in help.contents[0] ? help.contents[0].text : "?");
  const prompt = await client.getPrompt("explain", { topic: "addition" });
  console.log("getPrompt:", prompt.messages.length, "message(s)");
  await client.ping();
  console.log("ping: ok");
} finally {
  await http.close();
  await server.close();
}
