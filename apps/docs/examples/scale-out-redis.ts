// Scale-out on Redis: two instances of one server share their state through `redisStore()` of
// `@mcpkit/redis` (legacy sessions, the MRTR key ring, tasks, notifications, resumable streams), so a load
// balancer needs no stickiness. The client's `fetch` sends each request to the other instance in turn, the
// way a round-robin balancer would: an MRTR elicitation answered on the other instance, and a legacy
// session whose every call lands on a different process than the last one. Needs Redis (REDIS_URL,
// default redis://127.0.0.1:6379).
// Run: pnpm --filter @mcpkit/docs example examples/scale-out-redis.ts
import { randomUUID } from "node:crypto";
import { createClient } from "@mcpkit/client";
import { redisStore } from "@mcpkit/redis";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { createServer, serve } from "mcpkit";

const prefix = `mcpkit-docs:${randomUUID().slice(0, 8)}:`; // keys of this run only
const stateKeys = "docs-example-secret"; // the requestState key ring, the same on every instance

async function startInstance(label: string) {
  const server = createServer({ name: "orders", version: "1.0.0" });
  server.registerTool("order_pizza", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: "form",
      message: "Which size?",
      requestedSchema: { type: "object", properties: { size: { type: "string" } } },
    });
    return `one ${answer.content?.size} pizza, finished on ${label}`;
  });
  server.registerTool("where", {}, () => label);
  const store = await redisStore({ url: process.env.REDIS_URL, prefix, stateKeys });
  const http = await serve(server, { transport: "http", port: 0, block: false, store, onListening() {} });
  return {
    url: http.url,
    async close() {
      await http.close();
      await server.close();
      await store.close();
    },
  };
}

const instances = [await startInstance("A"), await startInstance("B")];
let next = 0;
/** A round-robin balancer in one function: each request goes to the next instance. */
const roundRobin: typeof fetch = (input, init) => {
  const target = instances[next++ % instances.length]!.url;
  return fetch(new Request(target, new Request(input, init)));
};

try {
  for (const era of ["modern", "legacy"] as const) {
    const client = createClient({
      name: "docs",
      version: "1.0.0",
      versionNegotiation: era,
      handlers: { elicitation: async () => ({ action: "accept", content: { size: "large" } }) },
    });
    await client.connect(() =>
      createStreamableHttpClientTransport({ url: instances[0]!.url, fetch: roundRobin }),
    );
    try {
      const order = await client.callTool("order_pizza");
      const where = [];
      for (let i = 0; i < 4; i++) where.push((await client.callTool("where")).content);
      console.log(`[${era}] ${order.content} | calls served by ${where.join(" ")}`);
    } finally {
      await client.close();
    }
  }
} finally {
  for (const instance of instances) await instance.close();
}
