// Subscriptions and list_changed: `client.subscribe(filter)` is one async stream over both eras —
// `subscriptions/listen` in 2026-07-28, the unsolicited notifications plus `resources/subscribe` in a
// legacy session. The server tells subscribers about a changed resource with
// `server.notifyResourceUpdated(uri)` and about list changes on every (un)registration.
// Run: pnpm --filter @mcpkit/docs example examples/subscriptions.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

const server = createServer({ name: "live", version: "1.0.0" });
let temperature = 20;
server.registerResource("sensor://temperature", { name: "temperature" }, () => String(temperature));
server.registerTool("read_sensor", {}, () => String(temperature));

for (const era of ["modern", "legacy"] as const) {
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const client = createClient({ name: "docs", version: "1.0.0", versionNegotiation: era });
  await client.connect(clientSide);
  try {
    await client.listTools();
    const subscription = client.subscribe({
      toolsListChanged: true,
      resourceSubscriptions: ["sensor://temperature"],
    });
    console.log(`[${era}] acknowledged:`, JSON.stringify(await subscription.acknowledged));

    // Two changes: a resource update and a new tool.
    temperature = 23;
    server.notifyResourceUpdated("sensor://temperature");
    const tool = server.registerTool("calibrate", {}, () => "calibrated");

    const seen: string[] = [];
    for await (const notification of subscription) {
      seen.push(notification.method);
      if (notification.method === "notifications/resources/updated") {
        const contents = (await client.readResource(String(notification.params.uri))).contents[0];
        console.log(`[${era}] temperature now`, contents && "text" in contents ? contents.text : "?");
      }
      if (seen.length === 2) break; // `break` closes the subscription
    }
    console.log(`[${era}] got:`, seen.sort().join(", "), "| toolsStale:", client.toolsStale);
    console.log(`[${era}] tools:`, (await client.listTools()).map((t) => t.name).join(", "));
    tool.remove(); // tells clients again
  } finally {
    await client.close();
  }
}
await server.close();
