// One trace of the demo: the agent run through the OpenAI bridge (the real `openai` SDK against a
// loopback provider playing the demo's model) over two servers — the everything server in a child process
// over stdio and the travel desk over HTTP — with the real OpenTelemetry SDK on both sides. The spans of
// this process and of the child are put together into one tree: invoke_agent → chat {model} and
// execute_tool {tool} → the MCP client span → the server span.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";
import { afterAll, expect, it } from "vitest";
import { runDemo } from "../src/demo.js";
import { startOpenAIProvider } from "./fixtures/openai-provider.js";
import { type SpanRecord, setUpOpenTelemetry, toRecord } from "./fixtures/otel.js";

const here = dirname(fileURLToPath(import.meta.url));
const otel = setUpOpenTelemetry();
const dir = mkdtempSync(join(tmpdir(), "agent-demo-trace-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KINDS = ["INTERNAL", "SERVER", "CLIENT"];
const KEYS = [
  "gen_ai.provider.name",
  "gen_ai.request.model",
  "gen_ai.response.finish_reasons",
  "gen_ai.tool.name",
  "gen_ai.tool.call.id",
  "mcp.protocol.version",
  "mcp.session.id",
  "jsonrpc.request.id",
  "network.transport",
  "network.protocol.name",
  "server.address",
  "server.port",
  "error.type",
];

/** Siblings in start order, except that the tool calls of one step (run at once) go by name. */
function siblings(spans: SpanRecord[]): SpanRecord[] {
  const ordered = spans.sort((a, b) => a.start - b.start);
  const out: SpanRecord[] = [];
  let step: SpanRecord[] = [];
  const flush = () => {
    out.push(...step.sort((a, b) => a.name.localeCompare(b.name)));
    step = [];
  };
  for (const span of ordered) {
    if (span.name.startsWith("execute_tool ")) step.push(span);
    else {
      flush();
      out.push(span);
    }
  }
  flush();
  return out;
}

/** The tree under `root`, one line per span: name, kind, where it ran, key attributes. */
function tree(
  spans: SpanRecord[],
  root: SpanRecord,
  child: Set<SpanRecord>,
): { full: string[]; shape: string[] } {
  const full: string[] = [];
  const shape: string[] = [];
  const walk = (span: SpanRecord, prefix: string, last: boolean, depth: number) => {
    const where = child.has(span) ? `${span.scope}, child process` : span.scope;
    const attributes = KEYS.filter((k) => span.attributes[k] !== undefined)
      .map((k) => `${k}=${String(span.attributes[k])}`)
      .join(" ");
    const branch = depth === 0 ? "" : `${prefix}${last ? "└─ " : "├─ "}`;
    full.push(`${branch}${span.name} [${KINDS[span.kind]}] (${where})${attributes ? ` ${attributes}` : ""}`);
    shape.push(`${"  ".repeat(depth)}${span.name} [${KINDS[span.kind]}]`);
    const children = siblings(spans.filter((s) => s.parentSpanId === span.spanId));
    const next = depth === 0 ? "" : `${prefix}${last ? "   " : "│  "}`;
    for (const [i, c] of children.entries()) walk(c, next, i === children.length - 1, depth + 1);
  };
  walk(root, "", true, 0);
  return { full, shape };
}

it("one trace: invoke_agent → chat / execute_tool → MCP client span → server span, across both servers", async () => {
  const provider = await startOpenAIProvider();
  const file = join(dir, "everything.jsonl");
  const everything = await bundleFixture(join(here, "fixtures", "everything-traced.ts"));
  try {
    const result = await runDemo({
      out: { write() {} },
      stream: false,
      env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: provider.baseURL },
      // A spawned server gets a minimal environment (issue 25): the bundled fixture finds the OpenTelemetry
      // API it loads at run time through a NODE_PATH named here, not one inherited by accident.
      everythingCommand: [
        "/usr/bin/env",
        `OTEL_SPANS_FILE=${file}`,
        `NODE_PATH=${join(here, "..", "node_modules")}`,
        process.execPath,
        everything,
      ],
    });
    expect(result.text).toBe("Pack: passport, charger, sunscreen, sunglasses.");
  } finally {
    await provider.close();
  }

  const ours = otel.memory.getFinishedSpans().map(toRecord);
  const theirs = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as SpanRecord);
  const roots = ours.filter((s) => s.name === "invoke_agent");
  expect(roots).toHaveLength(1);
  const root = roots[0]!;
  const spans = [...ours, ...theirs].filter((s) => s.traceId === root.traceId);
  const { full, shape } = tree(spans, root, new Set(theirs));
  console.log(full.join("\n"));
  expect(shape).toEqual([
    "invoke_agent [INTERNAL]",
    "  chat gpt-4o-mini [CLIENT]",
    "  execute_tool everything__echo [INTERNAL]",
    "    tools/call echo [CLIENT]",
    "      tools/call echo [SERVER]",
    "  execute_tool travel__get_forecast [INTERNAL]",
    "    tools/call get_forecast [CLIENT]",
    "      tools/call get_forecast [SERVER]",
    "  chat gpt-4o-mini [CLIENT]",
    "  execute_tool travel__packing_list [INTERNAL]",
    "    tools/call packing_list [CLIENT]",
    "      tools/call packing_list [SERVER]",
    "  chat gpt-4o-mini [CLIENT]",
  ]);
  // Every span of the run is in the tree: nothing of it was left in a trace of its own.
  expect(spans).toHaveLength(shape.length);
  // What the spans say: the model and its provider, the tool, the transport and where the server is.
  const chat = spans.find((s) => s.name === "chat gpt-4o-mini")!;
  expect(chat.attributes).toMatchObject({
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-4o-mini",
  });
  const http = spans.find((s) => s.name === "tools/call get_forecast" && s.kind === 2)!;
  expect(http.attributes).toMatchObject({
    "network.transport": "tcp",
    "network.protocol.name": "http",
    "server.address": "127.0.0.1",
  });
  expect(http.attributes["server.port"]).toEqual(expect.any(Number));
  const stdio = spans.find((s) => s.name === "tools/call echo" && s.kind === 1)!;
  expect(stdio.attributes).toMatchObject({ "gen_ai.tool.name": "echo", "network.transport": "pipe" });
});
