// Logging: `ctx.log(level, data)` sends `notifications/message` to the client when the level in force
// allows it. The client picks the level with `setLogLevel` (legacy: `logging/setLevel`; modern: the
// level rides in each request's _meta) and receives messages in `onLog`.
// Run: pnpm --filter @mcpkit/docs example examples/logging.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

const server = createServer({ name: "chatty", version: "1.0.0" });
server.registerTool("work", {}, async (_args, ctx) => {
  await ctx.log("debug", "details nobody asked for", "worker");
  await ctx.log("info", { step: "started" }, "worker");
  await ctx.log("error", { step: "disk full" }, "worker");
  return "done";
});

for (const era of ["modern", "legacy"] as const) {
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const client = createClient({
    name: "docs",
    version: "1.0.0",
    versionNegotiation: era,
    onLog: ({ level, logger, data }) => console.log(`[${era}] ${level} ${logger}: ${JSON.stringify(data)}`),
  });
  await client.connect(clientSide);
  try {
    await client.setLogLevel("info"); // debug is filtered out by the server
    await client.callTool("work");
  } finally {
    await client.close();
  }
}
await server.close();
