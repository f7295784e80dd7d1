import { createRequire } from "node:module";
import type { ConnectionFacts, OpenTelemetryApi } from "@mcpkit/protocol";
import { McpTelemetry } from "@mcpkit/protocol/telemetry";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";

// The API's CommonJS build, as the SDK packages load it (its ESM build has extensionless imports).
const api = createRequire(import.meta.url)("@opentelemetry/api") as typeof import("@opentelemetry/api");
const otel = api as unknown as OpenTelemetryApi;

const facts: ConnectionFacts = {
  network: { "network.transport": "pipe" },
  protocolVersion: () => "2025-11-25",
  sessionId: () => undefined,
};

afterEach(() => {
  api.trace.disable();
});

describe("McpTelemetry without an SDK", () => {
  it("gives a connection no observer while no tracer SDK is registered, and one from the next connection after", () => {
    api.trace.disable();
    const telemetry = new McpTelemetry(otel, "client", "test", "0.0.0");
    expect(telemetry.metering).toBe(false);
    expect(telemetry.active).toBe(false);
    expect(telemetry.observer(facts)).toBeUndefined();

    const exporter = new InMemorySpanExporter();
    api.trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    expect(telemetry.active).toBe(true);
    const observer = telemetry.observer(facts);
    const watch = observer?.requestOut("tools/list", {}, 1);
    watch?.end({ tools: [] }, undefined);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["tools/list"]);
  });

  it("uses a tracer provider passed in even when none is registered globally", () => {
    api.trace.disable();
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const telemetry = new McpTelemetry(otel, "server", "test", "0.0.0", { tracerProvider });
    expect(telemetry.active).toBe(true);
    const watch = telemetry.observer(facts)?.requestIn("ping", {}, 7, undefined);
    watch?.end({}, undefined);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["ping"]);
  });
});
