// The testing kit as a user takes it: a server tested in-process, an agent loop driven by the scripted
// model, and the real OpenAI and Anthropic SDKs pointed at the fake provider (no key, no network).
import Anthropic from "@anthropic-ai/sdk";
import { createServer } from "@mcpkit/server";
import { aggregateTools, runToolLoop } from "@mcpkit/tool-loop";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { connectInProcess, createScriptedModel } from "../src/index.js";
import { type FakeProvider, startFakeProvider } from "../src/node.js";

function weatherServer() {
  const server = createServer({ name: "weather", version: "1.0.0" });
  server.registerTool(
    "forecast",
    { inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
    ({ city }: { city: string }) => `Sunny in ${city}`,
  );
  return server;
}

let provider: FakeProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe("connectInProcess", () => {
  it("joins a client to a server of this process, in both eras", async () => {
    const server = weatherServer();
    await using modern = await connectInProcess(server);
    expect(modern.era).toBe("modern");
    expect((await modern.callTool("forecast", { city: "Oslo" })).content).toBe("Sunny in Oslo");
    await using legacy = await connectInProcess(server, {
      versionNegotiation: "legacy",
      perRequestStream: true,
    });
    expect(legacy.era).toBe("legacy");
    expect((await legacy.callTool("forecast", { city: "Rome" })).content).toBe("Sunny in Rome");
  });
});

describe("createScriptedModel with runToolLoop", () => {
  it("drives an agent over an in-process server", async () => {
    await using client = await connectInProcess(weatherServer());
    const model = createScriptedModel([
      { toolCalls: [{ name: "weather__forecast", arguments: { city: "Lima" } }] },
      { text: "It says: {{result}}" },
    ]);
    const tools = await aggregateTools({ weather: client });
    const run = await runToolLoop({ model, tools, messages: [{ role: "user", content: "Lima?" }] });
    expect(run.text).toBe("It says: Sunny in Lima");
  });
});

describe("startFakeProvider with the real SDKs", () => {
  const script = [
    (request: { tools: readonly string[] }) => ({
      toolCalls: [{ name: request.tools[0]!, arguments: { city: "Lisbon" } }],
    }),
    { text: "Forecast: {{result}}" },
  ];

  it("speaks OpenAI Chat Completions", async () => {
    provider = await startFakeProvider(script);
    const openai = new OpenAI({ apiKey: "none", baseURL: `${provider.origin}/v1` });
    const tools = [
      { type: "function" as const, function: { name: "forecast", parameters: { type: "object" } } },
    ];
    const first = await openai.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "?" }],
      tools,
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && call.function.name).toBe("forecast");
    expect(call.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Lisbon" });
    const second = await openai.chat.completions.create({
      model: "m",
      tools,
      messages: [
        { role: "user", content: "?" },
        first.choices[0]!.message,
        { role: "tool", tool_call_id: call.id, content: "Sunny in Lisbon" },
      ],
    });
    expect(second.choices[0]!.message.content).toBe("Forecast: Sunny in Lisbon");
    expect(provider.requests.map((r) => r.format)).toEqual(["chat-completions", "chat-completions"]);
  });

  it("speaks OpenAI Responses", async () => {
    provider = await startFakeProvider(script);
    const openai = new OpenAI({ apiKey: "none", baseURL: `${provider.origin}/v1` });
    const tools = [
      { type: "function" as const, name: "forecast", parameters: { type: "object" }, strict: false },
    ];
    const first = await openai.responses.create({ model: "m", input: "?", tools });
    const call = first.output.find((item) => item.type === "function_call");
    expect(call?.type === "function_call" && call.name).toBe("forecast");
    const second = await openai.responses.create({
      model: "m",
      tools,
      input: [
        { role: "user", content: "?" },
        ...(call?.type === "function_call" ? [call] : []),
        {
          type: "function_call_output",
          call_id: call?.type === "function_call" ? call.call_id : "",
          output: "Sunny in Lisbon",
        },
      ],
    });
    expect(second.output_text).toBe("Forecast: Sunny in Lisbon");
  });

  it("speaks Anthropic Messages", async () => {
    provider = await startFakeProvider(script);
    const anthropic = new Anthropic({ apiKey: "none", baseURL: provider.origin });
    const tools = [{ name: "forecast", input_schema: { type: "object" as const } }];
    const first = await anthropic.messages.create({
      model: "m",
      max_tokens: 100,
      messages: [{ role: "user", content: "?" }],
      tools,
    });
    const use = first.content.find((block) => block.type === "tool_use");
    expect(use?.type === "tool_use" && use.input).toEqual({ city: "Lisbon" });
    const second = await anthropic.messages.create({
      model: "m",
      max_tokens: 100,
      tools,
      messages: [
        { role: "user", content: "?" },
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: use?.type === "tool_use" ? use.id : "",
              content: "Sunny in Lisbon",
            },
          ],
        },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "Forecast: Sunny in Lisbon" }]);
  });

  it("says when the script is used up, and refuses streaming plainly", async () => {
    provider = await startFakeProvider([{ text: "only" }]);
    const openai = new OpenAI({ apiKey: "none", baseURL: `${provider.origin}/v1`, maxRetries: 0 });
    const streamed = await openai.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "?" }], stream: true })
      .catch((e: unknown) => e);
    expect((streamed as Error).message).toContain("call it without stream: true");
    await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "?" }] });
    const over = await openai.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "?" }] })
      .catch((e: unknown) => e);
    expect((over as Error).message).toContain("the fake provider's script is used up (1 turns)");
  });
});
