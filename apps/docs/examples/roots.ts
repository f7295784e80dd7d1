// Roots: the client tells the server which directories (file:// URIs) it may work in. The server asks
// with `ctx.listRoots()` (deprecated in 2026-07-28, still functional); the client answers with its
// `roots` handler, in either era.
// Run: pnpm --filter @mcpkit/docs example examples/roots.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

const server = createServer({ name: "files", version: "1.0.0" });
server.registerTool("where_can_i_work", {}, async (_args, ctx) => {
  const { roots } = await ctx.listRoots();
  return roots.map((root) => `${root.name ?? "?"} → ${root.uri}`).join("\n");
});

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({
  name: "docs",
  version: "1.0.0",
  handlers: {
    roots: () => [
      { uri: "file:///home/ada/project", name: "project" },
      { uri: "file:///tmp/scratch", name: "scratch" },
    ],
  },
});
await client.connect(clientSide);
try {
  console.log((await client.callTool("where_can_i_work")).content);
} finally {
  await client.close();
  await server.close();
}
