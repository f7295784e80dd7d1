// Serves the conformance fixtures over Streamable HTTP at http://127.0.0.1:$PORT/mcp, both eras on one
// endpoint. `PORT=3000 pnpm start`; SIGINT/SIGTERM close the server and its streams. With REDIS_URL set,
// tasks, notifications, resumable streams and legacy sessions live in that Redis and MCPKIT_STATE_KEYS
// (comma-separated, the first current) is the requestState key ring, so copies started with the same two
// variables form one cluster behind a load balancer.
import { listen } from "@mcpkit/transport-http/node";
import { buildConformanceServer } from "./fixtures.js";

/** The Redis stores when REDIS_URL is set (the package is loaded only then). */
async function clusterStore() {
  const url = process.env.REDIS_URL;
  if (url === undefined || url === "") return undefined;
  const { redisStore } = await import("@mcpkit/redis");
  const stateKeys = process.env.MCPKIT_STATE_KEYS;
  const prefix = process.env.MCPKIT_REDIS_PREFIX;
  return redisStore({
    url,
    ...(stateKeys !== undefined && stateKeys !== "" && { stateKeys }),
    ...(prefix !== undefined && prefix !== "" && { prefix }),
    onError: (error) => console.error("[conformance-server] redis:", error),
  });
}

const server = buildConformanceServer();
const store = await clusterStore();
if (store !== undefined) server.useStores(store);
const port = Number(process.env.PORT ?? 3000);
// MCPKIT_ERAS=legacy|modern serves one era only (the gateway's conformance runs put it behind the gateway).
const eras = process.env.MCPKIT_ERAS;
if (eras !== undefined && eras !== "" && eras !== "legacy" && eras !== "modern" && eras !== "both") {
  throw new Error(`MCPKIT_ERAS must be legacy, modern or both, got ${eras}`);
}
const http = await listen({
  ...(eras === "legacy" || eras === "modern" ? { eras } : {}),
  ...(store !== undefined && { eventStore: store.eventStore, sessionStore: store.sessionStore }),
  port,
  host: process.env.HOST ?? "127.0.0.1",
  path: "/mcp",
  // 2026-07-28 requests go to server.handle; legacy sessions to server.connect.
  server,
  onError: (error) => console.error("[conformance-server]", error),
});
console.error(
  `mcpkit conformance server listening on ${http.url}${store === undefined ? "" : ` (shared state in Redis at ${process.env.REDIS_URL})`}`,
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await http.close();
  await store?.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
