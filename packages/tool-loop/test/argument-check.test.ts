// The tool loop checks a model's arguments against the tool's inputSchema itself (issue 27, item 6): a
// server that does not validate never receives arguments that break the schema, and the model reads the
// validator's precise error, with a code the host can read.
import { type Client, createClient } from "@mcpkit/client";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  aggregateTools,
  createScriptedModel,
  type LoopEvent,
  runToolLoop,
  type ToolResultMessage,
} from "../src/index.js";

const SERVER = new URL("./fixtures/unvalidating-server.mjs", import.meta.url).pathname;

describe("arguments are checked against inputSchema before the server is called", () => {
  let client: Client;
  beforeAll(async () => {
    client = createClient({ name: "argument-check", version: "1.0.0" });
    await client.connect(
      spawnStdioTransport({ command: process.execPath, args: [SERVER], stderr: "inherit" }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it("answers bad arguments locally with the validator's errors; the server counts only the good call", async () => {
    const tools = await aggregateTools(client);
    const model = createScriptedModel([
      { toolCalls: [{ name: "set_alarm", arguments: { hour: "seven", snooze: true } }] },
      { toolCalls: [{ name: "set_alarm", arguments: { hour: 7 } }] },
      { text: "done" },
    ]);
    const events: LoopEvent[] = [];
    await runToolLoop({ model, tools, messages: [], onEvent: (event) => events.push(event) });
    // The last request carries the whole transcript.
    const results = model.requests[2]!.messages.filter((m): m is ToolResultMessage => m.role === "tool");
    expect(results).toEqual([
      {
        role: "tool",
        toolCallId: expect.any(String),
        name: "set_alarm",
        isError: true,
        errorCode: "invalid-arguments",
        content:
          'Invalid arguments for tool "set_alarm": arguments must NOT have additional properties (snooze); arguments/hour must be integer. The tool was not run; call it again with arguments that match its input schema.',
      },
      // The first call that reached the server: the bad one never did.
      {
        role: "tool",
        toolCallId: expect.any(String),
        name: "set_alarm",
        isError: false,
        content: 'call #1 got {"hour":7}',
      },
    ]);
    const first = events.find((event) => event.type === "tool-result");
    expect(first).toMatchObject({ result: { isError: true, errorCode: "invalid-arguments" } });
  });

  it("validator: false leaves the arguments to the server (which here takes anything)", async () => {
    const tools = await aggregateTools(client);
    const model = createScriptedModel([
      { toolCalls: [{ name: "set_alarm", arguments: { hour: "seven" } }] },
      { text: "ok" },
    ]);
    await runToolLoop({ model, tools, messages: [], validator: false });
    const sent = model.requests[1]!.messages.find((m): m is ToolResultMessage => m.role === "tool");
    expect(sent?.content).toMatch(/^call #\d+ got \{"hour":"seven"\}$/);
  });
});
