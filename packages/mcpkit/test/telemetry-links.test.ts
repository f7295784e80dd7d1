// Span links (the real OpenTelemetry SDK, client and server in one process over the in-memory pair, the
// 2026-07-28 era): the MRTR rounds of one call and the polls of one task are separate requests, each with
// its own CLIENT span; every later one links to the span of the call's first request.
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { createServer } from "../src/index.js";
import { setUpOpenTelemetry, toRecord } from "./fixtures/otel-setup.js";

const CLIENT = 2;
const otel = setUpOpenTelemetry();

function clientSpans(name: string) {
  return otel.memory
    .getFinishedSpans()
    .map(toRecord)
    .filter((s) => s.name === name && s.kind === CLIENT);
}

describe("span links of one operation", () => {
  it("an MRTR round and the polls of a task link to the first call's span", async () => {
    otel.memory.reset();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = createServer({
      name: "links",
      version: "1.0.0",
      telemetry: false,
      tasks: { pollIntervalMs: 1 },
    });
    server.registerTool("ask", {}, async (_args, ctx) => {
      const answer = await ctx.elicit(
        { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
        { key: "name" },
      );
      return `Hi ${String(answer.content?.name)}`;
    });
    // The task ends once the client has polled it: at least one tasks/get finds it still working.
    server.registerTool("render", { taskSupport: "optional" }, async () => {
      await released;
      return "rendered";
    });
    const [clientSide, serverSide] = createInMemoryPair();
    await server.connect(serverSide);
    const client = createClient({
      name: "links-test",
      version: "1.0.0",
      tasks: true,
      telemetry: { api: otel.api },
      handlers: { elicitation: async () => ({ action: "accept", content: { name: "Ada" } }) },
      onMessage: (event) => {
        const m = event.message as { method?: string };
        if (event.direction === "out" && m.method === "tasks/get") release();
      },
    });
    await client.connect(clientSide);
    try {
      // Under a span of the app's: the rounds are its children, siblings of each other.
      await otel.api.trace.getTracer("test").startActiveSpan("agent turn", async (root) => {
        try {
          expect((await client.callTool("ask", {})).content).toBe("Hi Ada");
        } finally {
          root.end();
        }
      });
      // Without one, each request is a trace of its own: only the link ties the polls to their call.
      expect((await client.callTool("render", {})).content).toBe("rendered");
    } finally {
      await client.close();
    }

    const [first, second, ...more] = clientSpans("tools/call ask");
    expect(more).toEqual([]);
    expect(first!.links).toEqual([]);
    expect(second!.links).toEqual([first!.spanId]);
    // The rounds are siblings (same parent, same trace), not parent and child.
    expect(second!.traceId).toBe(first!.traceId);
    expect(second!.parentSpanId).toBe(first!.parentSpanId);
    expect(first!.parentSpanId).toBeDefined();

    const [call] = clientSpans("tools/call render");
    expect(call!.links).toEqual([]);
    const polls = clientSpans("tasks/get");
    expect(polls.length).toBeGreaterThanOrEqual(1);
    for (const poll of polls) expect(poll.links).toEqual([call!.spanId]);
    // Calls of their own are not linked to each other.
    expect(call!.links).not.toContain(first!.spanId);
  });
});
