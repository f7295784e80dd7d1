// The client against our own server (@mcpkit/server) over the in-memory pair: the same scenario in
// both eras, over a stream-like pair (stdio) and a pair with a stream per request (HTTP-like).
import { createInMemoryPair, type Transport } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import type { Server } from "@mcpkit/server";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient, type VersionNegotiation } from "../src/index.js";
import { fixture, handlers } from "./fixture-server.js";

const cases: Array<{
  name: string;
  negotiation: VersionNegotiation;
  era: string;
  perRequestStream: boolean;
}> = [
  { name: "modern over a stream", negotiation: "auto", era: "modern", perRequestStream: false },
  { name: "modern over per-request streams", negotiation: "auto", era: "modern", perRequestStream: true },
  { name: "legacy over a stream", negotiation: "legacy", era: "legacy", perRequestStream: false },
];

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

async function connect(
  server: Server,
  negotiation: VersionNegotiation,
  perRequestStream: boolean,
  extra: Partial<Parameters<typeof createClient>[0]> = {},
): Promise<Client> {
  const [clientEnd, serverEnd] = createInMemoryPair({ perRequestStream });
  await server.connect(serverEnd as Transport);
  const client = createClient({
    name: "client-under-test",
    version: "0.0.1",
    versionNegotiation: negotiation,
    handlers,
    ...extra,
  });
  cleanup.push(() => client.close());
  await client.connect(clientEnd);
  return client;
}

describe.each(cases)("against @mcpkit/server: $name", ({ negotiation, era, perRequestStream }) => {
  it("negotiates the era and lists everything", async () => {
    const server = fixture();
    cleanup.push(() => server.close());
    const client = await connect(server, negotiation, perRequestStream);
    expect(client.era).toBe(era);
    expect(client.serverInfo?.name).toBe("our-server");
    expect(client.instructions).toBe("fixture");
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual([
      "add",
      "ask",
      "fail",
      "log",
      "progress",
    ]);
    expect((await client.listResources()).map((r) => r.uri)).toContain("mem://readme");
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["mem://item/{id}"]);
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(["greet"]);
  });

  it("calls tools: structured output checked, failures as data, unknown tools as McpError", async () => {
    const server = fixture();
    cleanup.push(() => server.close());
    const client = await connect(server, negotiation, perRequestStream);
    await client.listTools();
    const sum = await client.callTool("add", { a: 2, b: 3 });
    expect(sum.structured).toEqual({ sum: 5 });
    expect(sum.isError).toBe(false);
    const failed = await client.callTool("fail");
    expect(failed.isError).toBe(true);
    expect(failed.content).toContain("it failed");
    const unknown = await client.callTool("nope").catch((e) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect(unknown.code).toBe(-32602);
  });

  it("receives progress, answers elicitation, sampling and roots with the same handlers", async () => {
    const server = fixture();
    cleanup.push(() => server.close());
    const client = await connect(server, negotiation, perRequestStream);
    const steps: string[] = [];
    await client.callTool("progress", {}, { onProgress: (p) => steps.push(`${p.progress}/${p.total}`) });
    expect(steps).toEqual(["1/3", "2/3", "3/3"]);
    expect((await client.callTool("ask")).content).toBe("Ada|sampled|file:///work");
  });

  it("reads resources and templates, gets and completes prompts, logs at the chosen level", async () => {
    const server = fixture();
    cleanup.push(() => server.close());
    const logs: unknown[] = [];
    const client = await connect(server, negotiation, perRequestStream, { onLog: (l) => logs.push(l.data) });
    expect((await client.readResource("mem://readme")).contents[0]).toMatchObject({ text: "read me" });
    expect((await client.readResource("mem://item/42")).contents[0]).toMatchObject({ text: "item 42" });
    const prompt = await client.getPrompt("greet", { who: "you" });
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "Hello, you!" });
    expect(
      (await client.complete({ type: "ref/prompt", name: "greet" }, { name: "who", value: "w" })).values,
    ).toEqual(["world", "wombat"]);
    await client.setLogLevel("info");
    await client.callTool("log");
    await client.ping();
    expect(logs).toEqual(["hello from the tool"]);
  });

  it("delivers list_changed and resource updates through subscribe()", async () => {
    const server = fixture();
    cleanup.push(() => server.close());
    const client = await connect(server, negotiation, perRequestStream);
    const sub = client.subscribe({ toolsListChanged: true, resourceSubscriptions: ["mem://readme"] });
    await sub.acknowledged;
    server.registerTool("late", { description: "added later" }, () => "late");
    const first = await sub.next();
    expect(first.value?.method).toBe("notifications/tools/list_changed");
    expect(client.toolsStale).toBe(true);
    expect((await client.listTools()).map((t) => t.name)).toContain("late");
    expect(client.toolsStale).toBe(false);
    server.notifyResourceUpdated("mem://readme");
    const second = await sub.next();
    expect(second.value).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "mem://readme" },
    });
    await sub.close();
  });
});
