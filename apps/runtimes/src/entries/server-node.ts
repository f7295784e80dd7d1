// The Node cell's server: the runtime app on node:http (`@mcpkit/transport-http/node`). PORT, ORIGIN env.
import { listen } from "@mcpkit/transport-http/node";
import { createRuntimeApp } from "../fixtures/runtime-server.js";

const app = createRuntimeApp(process.env.ORIGIN ? [process.env.ORIGIN] : []);
const http = await listen({
  handler: app.handler,
  port: Number(process.env.PORT),
  host: "127.0.0.1",
  path: "/mcp",
});
console.error(`[node ${process.version}] listening on ${http.url}`);
const stop = () => void http.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
