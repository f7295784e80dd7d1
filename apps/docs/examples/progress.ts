// Progress: a handler reports how far it got with `ctx.progress(done, total, message)`; the caller
// receives it through `onProgress` (the client sends a progressToken for it). Progress also restarts
// the call's timeout, bounded by maxTotalTimeout.
// Run: pnpm --filter @mcpkit/docs example examples/progress.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { z } from "zod";

const server = createServer({ name: "worker", version: "1.0.0" });
server.registerTool(
  "process_files",
  { inputSchema: z.object({ count: z.number().int() }) },
  async ({ count }, ctx) => {
    for (let i = 1; i <= count; i++) {
      // ...work on file i...
      await ctx.progress(i, count, `file ${i} of ${count}`);
    }
    return `processed ${count} files`;
  },
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientSide);
try {
  const result = await client.callTool(
    "process_files",
    { count: 3 },
    {
      timeout: 5_000,
      onProgress: ({ progress, total, message }) => console.log(`progress ${progress}/${total}: ${message}`),
    },
  );
  console.log(result.content);
} finally {
  await client.close();
  await server.close();
}
