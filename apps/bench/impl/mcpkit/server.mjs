// mcpkit server (@mcpkit/server, built dist): one registry built once with plain JSON Schema tool inputs,
// served over stdio (serveStdio from @mcpkit/transport-stdio) or Streamable HTTP (listen from
// @mcpkit/transport-http/node; both eras on one endpoint, JSON or SSE replies as the spec says), with
// `spec.store: "redis"` on the Redis stores of @mcpkit/redis (scenario 10).
import { createServer } from "@mcpkit/server";
import { listen } from "@mcpkit/transport-http/node";
import { serveStdio } from "@mcpkit/transport-stdio";
import { announcePort, blobText, fillerNames, readServerSpec, statsText } from "../common/tools.mjs";
import { telemetryOption } from "./otel.mjs";

const spec = readServerSpec();
// Scenario 11 sets `spec.telemetry` (off, API without SDK, SDK with dropping exporters).
const telemetry = spec.telemetry ? await telemetryOption(spec.telemetry) : undefined;
const server = createServer({
  name: "bench-mcpkit",
  version: "0.0.0",
  ...(telemetry === false ? { telemetry } : {}),
});
const text = (t) => ({ content: [{ type: "text", text: t }] });
const object = (properties) => ({ type: "object", properties, required: Object.keys(properties) });

// Server CPU per echo call since the first one, for scenario 10: a per-call cost that other load on the
// machine skews far less than a rate does (it includes the warm-up calls).
let calls = 0;
let cpuFrom;
server.registerTool("echo", { inputSchema: object({ text: { type: "string" } }) }, ({ text: t }) => {
  if (calls++ === 0) cpuFrom = process.cpuUsage();
  return text(t);
});
server.registerTool("blob", { inputSchema: object({ bytes: { type: "number" } }) }, ({ bytes }) =>
  text(blobText(bytes)),
);
server.registerTool("stats", {}, () => {
  const stats = JSON.parse(statsText());
  if (calls > 1) {
    const used = process.cpuUsage(cpuFrom);
    stats.cpuUsPerCall = (used.user + used.system) / (calls - 1);
  }
  return text(JSON.stringify(stats));
});
for (const name of fillerNames(spec.tools)) {
  server.registerTool(
    name,
    { description: `filler ${name}`, inputSchema: object({ text: { type: "string" } }) },
    (a) => text(a.text),
  );
}

if (spec.transport === "stdio") {
  await serveStdio((transport) => server.connect(transport));
} else {
  // Scenario 10: the Redis stores (tasks, bus, key ring to the server; event and session stores to the
  // handler), loaded only then.
  const store =
    spec.store === "redis"
      ? await (await import("@mcpkit/redis")).redisStore({
          url: spec.redisUrl,
          prefix: spec.prefix,
          stateKeys: "bench",
        })
      : undefined;
  if (store) server.useStores(store);
  const handle = await listen({
    ...(store ? { eventStore: store.eventStore, sessionStore: store.sessionStore } : {}),
    port: 0,
    // 2026-07-28 requests are calls of server.handle; legacy sessions go to server.connect.
    server,
    preferJson: spec.reply === "json",
  });
  announcePort(handle.port);
}
