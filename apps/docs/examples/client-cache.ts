// The client's response cache: a 2026-07-28 server puts cache hints on its lists and `resources/read`
// results (`ttlMs`: how long the answer stays fresh, `cacheScope`: `public` or `private`), and the client
// keeps each answer that long instead of asking again. `notifications/tools/list_changed` (and the other
// list_changed) and `notifications/resources/updated` drop what they make old. The cache is per server,
// bounded (256 entries in memory by default), pluggable (`cache: { store }`, e.g. shared by the clients
// of a gateway; `private` answers are then served only to the same `authContext`), and `cache: false`
// turns it off.
//
// The server here is reached through its Web-standard HTTP handler in-process, and the `fetch` counts
// the requests by their `Mcp-Method` header, so the cache shows in the numbers.
// Run: pnpm --filter @mcpkit/docs example examples/client-cache.ts
import { type ClientOptions, createClient } from "@mcpkit/client";
import { createServer } from "@mcpkit/server";
import { createStreamableHttpClientTransport, createStreamableHttpHandler } from "@mcpkit/transport-http";

// The server says its answers stay fresh for a minute.
const server = createServer({ name: "notes", version: "1.0.0", cache: { ttlMs: 60_000, scope: "public" } });
let today = "write the docs";
server.registerResource("notes://today", { name: "today" }, () => today);
server.registerTool("add_note", {}, () => "added");
const handler = createStreamableHttpHandler({ connect: (t) => server.connect(t).then(() => {}) });

const asked = new Map<string, number>();
async function connectClient(cache?: ClientOptions["cache"]) {
  const client = createClient({ name: "docs", version: "1.0.0", ...(cache === undefined ? {} : { cache }) });
  await client.connect(() =>
    createStreamableHttpClientTransport({
      url: "http://localhost/mcp",
      fetch: (input, init) => {
        const request = new Request(input, init);
        const method = request.headers.get("mcp-method");
        if (method) asked.set(method, (asked.get(method) ?? 0) + 1);
        return handler.fetch(request);
      },
    }),
  );
  return client;
}

const client = await connectClient();
try {
  for (let i = 0; i < 3; i++) await client.listTools();
  console.log("listTools ×3 → tools/list requests:", asked.get("tools/list"));
  await client.readResource("notes://today");
  const again = await client.readResource("notes://today");
  console.log("readResource ×2 → resources/read requests:", asked.get("resources/read"), "|", text(again));

  // A change on the server: the notifications drop the cached answers before they reach the stream.
  const subscription = client.subscribe({ toolsListChanged: true, resourceSubscriptions: ["notes://today"] });
  await subscription.acknowledged;
  server.registerTool("archive", {}, () => "archived");
  today = "ship it";
  server.notifyResourceUpdated("notes://today");
  let seen = 0;
  for await (const _ of subscription) if (++seen === 2) break;
  const tools = (await client.listTools()).map((t) => t.name).join(", ");
  const fresh = await client.readResource("notes://today");
  console.log("after list_changed → tools/list requests:", asked.get("tools/list"), "|", tools);
  console.log(
    "after resources/updated → resources/read requests:",
    asked.get("resources/read"),
    "|",
    text(fresh),
  );
  // `refresh: true` asks anyway.
  await client.listTools({ refresh: true });
  console.log("refresh → tools/list requests:", asked.get("tools/list"));
} finally {
  await client.close();
}

// The off switch: every call goes to the server.
asked.clear();
const uncached = await connectClient(false);
try {
  await uncached.listTools();
  await uncached.listTools();
  console.log("cache: false, listTools ×2 → tools/list requests:", asked.get("tools/list"));
} finally {
  await uncached.close();
  await handler.close();
  await server.close();
}

function text(result: { contents: Array<{ text?: string } | object> }): string {
  const first = result.contents[0];
  return first && "text" in first ? String(first.text) : "?";
}
