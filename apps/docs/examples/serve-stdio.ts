// Serving over stdio: `serve(server)` reads JSON-RPC from stdin and writes only protocol frames to
// stdout (console output goes to stderr); it resolves when stdin ends, so a server whose client went
// away exits. A host starts it as a child process: `connect(["node", "server.js"])`.
//
// This file is both sides: started with `--serve` it is the server; otherwise it starts itself as one.
// Run: pnpm --filter @mcpkit/docs example examples/serve-stdio.ts
import { connect, createServer, serve } from "mcpkit";
import { z } from "zod";

const server = createServer({ name: "stdio-demo", version: "1.0.0" });
server.registerTool("greet", { inputSchema: z.object({ name: z.string() }) }, ({ name }) => {
  console.log(`greeting ${name}`); // goes to stderr while serving: stdout carries frames only
  return `Hello, ${name}! (from process ${process.pid})`;
});

if (process.argv.includes("--serve")) {
  await serve(server); // transport: "stdio" is the default
} else {
  // process.execArgv keeps the TypeScript loader when run with tsx.
  const command = [process.execPath, ...process.execArgv, process.argv[1]!, "--serve"];
  await using client = await connect(command, { stderr: (line) => console.log(`[server stderr] ${line}`) });
  console.log("connected:", client.serverInfo?.name, "era", client.era);
  const result = await client.callTool("greet", { name: "Ada" });
  console.log(result.content.replace(/\d+\)$/, "<pid>)"));
}
