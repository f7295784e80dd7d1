// One trace across two processes: our client here, our server in a child (stdio and HTTP), both with the
// real OpenTelemetry SDK. Spans of the child come back through a file.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createClient } from "@mcpkit/client";
import { bundleFixture } from "@mcpkit/test-kit";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpanRecord, setUpOpenTelemetry, toRecord } from "./fixtures/otel-setup.js";

const here = dirname(fileURLToPath(import.meta.url));
const CLIENT = 2;
const SERVER = 1;
const ERROR = 2;

const otel = setUpOpenTelemetry();
const dir = mkdtempSync(join(tmpdir(), "mcpkit-otel-"));
let entry: string;
beforeAll(async () => {
  entry = await bundleFixture(join(here, "fixtures", "otel-server.ts"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function childSpans(file: string): SpanRecord[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as SpanRecord);
}

function one(spans: SpanRecord[], name: string, kind: number): SpanRecord {
  const found = spans.filter((s) => s.name === name && s.kind === kind);
  expect(found, `${name} (${kind})`).toHaveLength(1);
  return found[0]!;
}

/** Runs the calls of one agent turn under a root span; returns its span id and trace id. */
async function underRoot(run: () => Promise<void>): Promise<{ traceId: string; spanId: string }> {
  const tracer = otel.api.trace.getTracer("test");
  return tracer.startActiveSpan("agent turn", async (root) => {
    try {
      await run();
    } finally {
      root.end();
    }
    return { traceId: root.spanContext().traceId, spanId: root.spanContext().spanId };
  });
}

describe("OpenTelemetry across processes", () => {
  it("stdio, legacy session: one connected trace, an elicitation nested in its tool call, errors recorded", async () => {
    otel.memory.reset();
    const file = join(dir, "stdio.jsonl");
    const client = createClient({
      name: "otel-test",
      version: "1.0.0",
      versionNegotiation: "legacy",
      telemetry: { api: otel.api },
      handlers: { elicitation: async () => ({ action: "accept", content: { name: "Ada" } }) },
    });
    await client.connect(
      spawnStdioTransport({
        command: process.execPath,
        args: [entry],
        env: { ...process.env, OTEL_SPANS_FILE: file },
      }),
    );
    const root = await underRoot(async () => {
      expect((await client.callTool("greet", { name: "Ada" })).content).toBe("Hello, Ada!");
      expect((await client.callTool("ask", {})).content).toBe("Hi Ada");
      expect((await client.callTool("broken", {})).isError).toBe(true);
      await expect(client.callTool("missing", {})).rejects.toThrow();
    });
    await client.close();
    const ours = otel.memory.getFinishedSpans().map(toRecord);
    const theirs = childSpans(file);

    const call = one(ours, "tools/call greet", CLIENT);
    expect(call.parentSpanId).toBe(root.spanId);
    expect(call.traceId).toBe(root.traceId);
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "greet",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "pipe",
    });
    expect(call.attributes["jsonrpc.request.id"]).toMatch(/^\d+$/);
    const served = one(theirs, "tools/call greet", SERVER);
    expect(served.traceId).toBe(root.traceId);
    expect(served.parentSpanId).toBe(call.spanId);
    expect(served.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "greet",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": call.attributes["jsonrpc.request.id"],
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "pipe",
    });
    expect(served.status.code).not.toBe(ERROR);

    // client → server tools/call ask → server's elicitation/create (CLIENT) → our elicitation/create (SERVER)
    const ask = one(theirs, "tools/call ask", SERVER);
    expect(ask.parentSpanId).toBe(one(ours, "tools/call ask", CLIENT).spanId);
    const elicit = one(theirs, "elicitation/create", CLIENT);
    expect(elicit.parentSpanId).toBe(ask.spanId);
    const answered = one(ours, "elicitation/create", SERVER);
    expect(answered.parentSpanId).toBe(elicit.spanId);
    expect(answered.traceId).toBe(root.traceId);

    // A tool result with isError: an error of its kind on both sides.
    for (const span of [one(ours, "tools/call broken", CLIENT), one(theirs, "tools/call broken", SERVER)]) {
      expect(span.status.code).toBe(ERROR);
      expect(span.attributes["error.type"]).toBe("tool_error");
    }
    // A protocol error: the JSON-RPC code as error.type and rpc.response.status_code, the message as status.
    for (const span of [one(ours, "tools/call missing", CLIENT), one(theirs, "tools/call missing", SERVER)]) {
      expect(span.status.code).toBe(ERROR);
      expect(span.attributes["error.type"]).toBe("-32602");
      expect(span.attributes["rpc.response.status_code"]).toBe("-32602");
      expect(span.status.message).toMatch(/missing/);
    }
    // The handshake and its notification are spans too, on both sides.
    one(ours, "initialize", CLIENT);
    one(theirs, "initialize", SERVER);
    one(ours, "notifications/initialized", CLIENT);
    one(theirs, "notifications/initialized", SERVER);

    const { resourceMetrics } = await otel.reader.collect();
    const metrics = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const operation = metrics.find((m) => m.descriptor.name === "mcp.client.operation.duration");
    expect(operation?.descriptor.unit).toBe("s");
    const points = operation?.dataPoints.map((p) => p.attributes) ?? [];
    expect(points).toContainEqual(
      expect.objectContaining({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "broken",
        "error.type": "tool_error",
      }),
    );
    expect(points.every((a) => a["jsonrpc.request.id"] === undefined)).toBe(true);
    const session = metrics.find((m) => m.descriptor.name === "mcp.client.session.duration");
    expect(session?.dataPoints[0]?.attributes).toMatchObject({
      "network.transport": "pipe",
      "mcp.protocol.version": "2025-11-25",
    });
  });

  it("Streamable HTTP, modern era: the server span is the child of the client span", async () => {
    otel.memory.reset();
    const file = join(dir, "http.jsonl");
    const child = spawn(process.execPath, [entry, "http"], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, OTEL_SPANS_FILE: file },
    });
    try {
      const lines = createInterface({ input: child.stdout! });
      const url = await new Promise<string>((resolve) => lines.once("line", resolve));
      const client = createClient({ name: "otel-test", version: "1.0.0", telemetry: { api: otel.api } });
      await client.connect(createStreamableHttpClientTransport({ url }));
      const root = await underRoot(async () => {
        expect((await client.callTool("greet", { name: "Bo" })).content).toBe("Hello, Bo!");
      });
      await client.close();
      const call = one(otel.memory.getFinishedSpans().map(toRecord), "tools/call greet", CLIENT);
      expect(call.parentSpanId).toBe(root.spanId);
      expect(call.attributes).toMatchObject({
        "network.transport": "tcp",
        "network.protocol.name": "http",
        "mcp.protocol.version": "2026-07-28",
      });
      const served = one(childSpans(file), "tools/call greet", SERVER);
      expect(served.traceId).toBe(root.traceId);
      expect(served.parentSpanId).toBe(call.spanId);
      expect(served.attributes).toMatchObject({
        "gen_ai.tool.name": "greet",
        "network.transport": "tcp",
        "network.protocol.name": "http",
        "mcp.protocol.version": "2026-07-28",
      });
    } finally {
      child.kill("SIGTERM");
    }
  });
});
