// A trace context sent by the official SDK v1 client (1.32.2) in `params._meta` (W3C traceparent and
// tracestate, the keys the MCP semantic conventions name) is picked up by our server: its span joins that
// trace as a child of the caller's span, and the tool handler runs inside it. Over Streamable HTTP, a
// legacy session (v1 speaks the initialize handshake), with the real OpenTelemetry SDK in this process.
// (Here rather than in packages/peers: peers depending on our server would close a workspace cycle.)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type RunningServer, serve } from "../src/index.js";
import { setUpOpenTelemetry, toRecord } from "./fixtures/otel-setup.js";

const SERVER = 1;
const otel = setUpOpenTelemetry();
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

let running: RunningServer;
const seenInHandler: Array<string | undefined> = [];

beforeAll(async () => {
  const server = createServer({ name: "traced", version: "1.0.0", telemetry: { api: otel.api } });
  server.registerTool(
    "greet",
    { inputSchema: { type: "object", properties: { name: { type: "string" } } } },
    (args: { name?: string }) => {
      // The handler runs inside the server span: its own work would be a child of it.
      seenInHandler.push(otel.api.trace.getActiveSpan()?.spanContext().traceId);
      return `Hello, ${args.name}!`;
    },
  );
  running = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
});

afterAll(async () => {
  await running?.close();
});

describe("a trace context from the official SDK v1 client", () => {
  it("in _meta: the server span is a child of the caller's span, the handler inside it", async () => {
    otel.memory.reset();
    const client = new Client({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    try {
      const result = await client.callTool({
        name: "greet",
        arguments: { name: "Ada" },
        _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: "vendor=opaque" },
      });
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
      // Without a context the call starts a trace of its own.
      await client.callTool({ name: "greet", arguments: { name: "Bo" } });
    } finally {
      await client.close();
    }

    const spans = otel.memory.getFinishedSpans().filter((s) => s.name === "tools/call greet");
    expect(spans.map((s) => s.kind)).toEqual([SERVER, SERVER]);
    const [joined, own] = spans.map(toRecord);
    expect(joined!.traceId).toBe(TRACE_ID);
    expect(joined!.parentSpanId).toBe(PARENT_ID);
    expect(spans[0]!.spanContext().traceState?.get("vendor")).toBe("opaque");
    expect(joined!.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "greet",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
      "network.protocol.name": "http",
    });
    expect(own!.traceId).not.toBe(TRACE_ID);
    expect(own!.parentSpanId).toBeUndefined();
    expect(seenInHandler).toEqual([TRACE_ID, own!.traceId]);
  });
});
