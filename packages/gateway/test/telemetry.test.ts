// OpenTelemetry through the gateway (the real SDK, AsyncLocalStorage context, W3C propagation in _meta):
// the downstream client's span, the gateway's server span, the gateway's upstream client span and the
// upstream's server span form one chain in one trace.
import { createRequire } from "node:module";
import { createClient } from "@mcpkit/client";
import { createServer } from "@mcpkit/server";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { listen } from "@mcpkit/transport-http/node";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { expect, it } from "vitest";
import { createGateway, parseGatewayConfig } from "../src/index.js";

// The API's CommonJS build, as the SDK packages load it (its ESM build has extensionless imports).
const api: typeof import("@opentelemetry/api") = createRequire(import.meta.url)("@opentelemetry/api");

it("links the downstream call, the gateway and the upstream call in one trace", async () => {
  const memory = new InMemorySpanExporter();
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }),
  );
  const telemetry = { api };

  const upstreamServer = createServer({ name: "traced-upstream", version: "1.0.0", telemetry });
  upstreamServer.registerTool("echo", { description: "echoes" }, () => "echoed");
  const upstream = await listen({ server: upstreamServer, port: 0 });
  const gateway = createGateway({
    config: parseGatewayConfig({
      mcpServers: { up: { url: upstream.url } },
      gateway: { audit: { target: "off" } },
    }),
    telemetry,
  });
  const client = createClient({
    name: "traced-client",
    version: "1.0.0",
    versionNegotiation: "modern",
    telemetry,
  });
  try {
    await gateway.start();
    const endpoint = await gateway.listen();
    await client.connect(() =>
      createStreamableHttpClientTransport({ url: new URL(endpoint.url), era: "modern" }),
    );
    memory.reset();
    expect((await client.callTool("echo", {})).content).toBe("echoed");
  } finally {
    await client.close();
    await gateway.close();
    await upstream.close();
  }
  const spans = memory.getFinishedSpans().filter((s) => s.name === "tools/call echo");
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const root = spans.find(
    (s) => s.kind === api.SpanKind.CLIENT && !byId.has(s.parentSpanContext?.spanId ?? ""),
  );
  expect(root).toBeDefined();
  const chain = [root!];
  for (let next = root; next; ) {
    next = spans.find((s) => s.parentSpanContext?.spanId === next!.spanContext().spanId);
    if (next) chain.push(next);
  }
  expect(chain.map((s) => s.kind)).toEqual([
    api.SpanKind.CLIENT,
    api.SpanKind.SERVER,
    api.SpanKind.CLIENT,
    api.SpanKind.SERVER,
  ]);
  expect(new Set(chain.map((s) => s.spanContext().traceId)).size).toBe(1);
});
