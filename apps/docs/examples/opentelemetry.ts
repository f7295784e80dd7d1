// OpenTelemetry: client and server make spans and metrics per the MCP semantic conventions, here exported
// to the console. Set up the SDK as usual (a context manager, the W3C propagator, a tracer provider); the
// client's CLIENT span `tools/call get_weather` carries its context in `params._meta.traceparent`, and
// the server's SERVER span of the same name is its child, inside your own span. Attributes: mcp.method.name,
// gen_ai.tool.name, jsonrpc.request.id, mcp.protocol.version, network.transport, error.type, ….
// Installed alongside mcpkit, `@opentelemetry/api` is found by itself; this file is bundled to run, so it
// passes the module in (`telemetry: { api }`), as a bundled app or a browser page would.
// Run: pnpm --filter @mcpkit/docs example examples/opentelemetry.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import * as api from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const provider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
});
api.trace.setGlobalTracerProvider(provider);

const server = createServer({ name: "weather", version: "1.0.0", telemetry: { api } });
server.registerTool(
  "get_weather",
  { inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  (args: { city: string }) => `${args.city}: sunny, 24 °C`,
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "agent", version: "1.0.0", telemetry: { api } });
await client.connect(clientSide);

// Your own span around the work: the MCP spans of the call are its children, one trace.
await api.trace.getTracer("docs").startActiveSpan("plan trip", async (span) => {
  try {
    const result = await client.callTool("get_weather", { city: "Lisbon" });
    console.log("result:", result.content);
  } finally {
    span.end();
  }
});
await client.close();
await provider.shutdown();
