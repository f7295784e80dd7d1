import { createRequire } from "node:module";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { aggregateTools } from "./aggregate.js";
import { runToolLoop } from "./run-tool-loop.js";
import { createScriptedModel } from "./scripted-model.js";
import { fakeSource } from "./test-support/fake-source.js";

// The API's CommonJS build, the one the SDK packages load (see vitest.config.ts).
const api: typeof import("@opentelemetry/api") = createRequire(import.meta.url)("@opentelemetry/api");
const exporter = new InMemorySpanExporter();
api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

describe("the tool loop's GenAI spans", () => {
  it("one trace: invoke_agent → chat per model call and execute_tool per tool call, whose work is its child", async () => {
    const tracer = tracerProvider.getTracer("fake-mcp-client");
    const source = fakeSource({
      // Stands in for the MCP client: the span it makes must be a child of execute_tool.
      add: {
        handler: () =>
          tracer.startActiveSpan("tools/call add", (span) => {
            span.end();
            return { content: "5" };
          }),
      },
      broken: { handler: () => ({ content: "disk full", isError: true }) },
    });
    const model = Object.assign(
      createScriptedModel([
        {
          toolCalls: [
            { name: "add", arguments: { a: 2, b: 3 } },
            { name: "broken", arguments: {} },
          ],
        },
        { text: "done" },
      ]),
      { provider: "openai", modelId: "gpt-test" },
    );
    await runToolLoop({
      model,
      tools: await aggregateTools(source),
      messages: [{ role: "user", content: "go" }],
      telemetry: { api, tracerProvider, agentName: "calc" },
    });
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const agent = byName("invoke_agent calc")[0]!;
    expect(agent.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "calc",
    });
    const chats = byName("chat gpt-test");
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
      expect(chat.kind).toBe(api.SpanKind.CLIENT);
      expect(chat.attributes).toMatchObject({
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-test",
      });
    }
    const add = byName("execute_tool add")[0]!;
    expect(add.parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
    expect(add.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "add",
      "gen_ai.tool.call.id": "call_0_0",
    });
    expect(byName("tools/call add")[0]!.parentSpanContext?.spanId).toBe(add.spanContext().spanId);
    const broken = byName("execute_tool broken")[0]!;
    expect(broken.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(broken.attributes["error.type"]).toBe("tool_error");
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it("telemetry: false makes no span", async () => {
    exporter.reset();
    await runToolLoop({
      model: createScriptedModel([{ text: "hi" }]),
      tools: await aggregateTools(fakeSource({})),
      messages: [],
      telemetry: false,
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
