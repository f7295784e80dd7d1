// Pagination: every list is paged (`pageSize`, default 100) with opaque cursors. `client.listTools()`
// (and the other list methods) follow the cursors and return everything; `client.request` shows a page.
// Run: pnpm --filter @mcpkit/docs example examples/pagination.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import type { ListToolsResult } from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";

const server = createServer({ name: "many-tools", version: "1.0.0", pageSize: 4 });
for (let i = 1; i <= 10; i++) server.registerTool(`tool_${i}`, {}, () => `tool ${i}`);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientSide);
try {
  const page1 = (await client.request("tools/list", {})) as ListToolsResult;
  console.log(
    "page 1:",
    page1.tools.map((t) => t.name).join(", "),
    "| nextCursor:",
    page1.nextCursor !== undefined,
  );
  const page2 = (await client.request("tools/list", { cursor: page1.nextCursor })) as ListToolsResult;
  console.log("page 2:", page2.tools.map((t) => t.name).join(", "));
  const all = await client.listTools();
  console.log("listTools():", all.length, "tools");
  await client.request("tools/list", { cursor: "not-a-cursor" }).catch((error: { code: number }) => {
    console.log("foreign cursor → error", error.code);
  });
} finally {
  await client.close();
  await server.close();
}
