// Serves the conformance fixtures over Streamable HTTP at http://127.0.0.1:$PORT/mcp, both eras on one
// endpoint. `PORT=3000 pnpm start`; SIGINT/SIGTERM close the server and its streams.
import { listen } from "@mcpkit/transport-http/node";
import { buildConformanceServer } from "./fixtures.js";

const server = buildConformanceServer();
const port = Number(process.env.PORT ?? 3000);
const http = await listen({
  port,
  host: process.env.HOST ?? "127.0.0.1",
  path: "/mcp",
  connect: (transport) => server.connect(transport).then(() => {}),
  onError: (error) => console.error("[conformance-server]", error),
});
console.error(`mcpkit conformance server listening on ${http.url}`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await http.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
