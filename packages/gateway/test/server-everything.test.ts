// The reference server-everything (2025-11-25 only) behind the gateway, reached by our client pinned to
// 2026-07-28: its server-to-client requests become input_required rounds, its notifications reach a
// subscriptions/listen stream.
import type { Client } from "@mcpkit/client";
import { serverEverythingEntry } from "@mcpkit/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, type RunningGateway, startGateway, within } from "./support/harness.js";

describe("server-everything (legacy only) through the gateway to a 2026-07-28 client", () => {
  let running: RunningGateway;
  let client: Client;
  const asked: Array<{ kind: string; era: string }> = [];

  beforeAll(async () => {
    running = await startGateway({
      mcpServers: { everything: { command: process.execPath, args: [serverEverythingEntry(), "stdio"] } },
    });
    client = await connectClient(running.endpoint.url, "modern", {
      handlers: {
        elicitation: (_params, context) => {
          asked.push({ kind: "elicitation", era: context.era });
          return { action: "accept", content: { name: "Ada" } } as never;
        },
        sampling: (params, context) => {
          asked.push({ kind: "sampling", era: context.era });
          const text = JSON.stringify(params.messages).includes("haiku") ? "a haiku" : "a reply";
          return { role: "assistant", content: { type: "text", text }, model: "test-model" };
        },
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await running?.close();
  });

  it("speaks 2026-07-28 downstream while the upstream is 2025-11-25, names kept with one upstream", async () => {
    expect(client.era).toBe("modern");
    const tools = (await client.listTools()).map((t) => t.name);
    expect(tools).toContain("echo");
    expect(tools).toContain("trigger-elicitation-request");
    const result = await client.callTool("echo", { message: "through" });
    expect(result.content).toBe("Echo: through");
    expect(running.audit.at(-1)).toMatchObject({
      identity: "anonymous",
      method: "tools/call",
      name: "echo",
      upstream: "everything",
      upstreamName: "echo",
      outcome: "ok",
    });
    expect(running.audit.at(-1)).not.toHaveProperty("arguments");
  });

  it("turns the upstream's elicitation request into an input_required round", async () => {
    const result = await client.callTool("trigger-elicitation-request", {});
    expect(result.isError).toBe(false);
    expect(result.content).toContain("Ada");
    expect(asked).toContainEqual({ kind: "elicitation", era: "modern" });
  });

  it("turns the upstream's sampling request into an input_required round", async () => {
    const result = await client.callTool("trigger-sampling-request", {
      prompt: "write a haiku",
      maxTokens: 20,
    });
    expect(result.content).toContain("a haiku");
    expect(asked).toContainEqual({ kind: "sampling", era: "modern" });
  });

  it("reads resources and templates, and gets prompts", async () => {
    const resources = await client.listResources();
    const doc = resources.find((r) => r.uri.endsWith("architecture.md"));
    expect(doc).toBeDefined();
    const read = await client.readResource(doc!.uri);
    expect(JSON.stringify(read.contents)).toContain("architecture");
    const templates = await client.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain("demo://resource/dynamic/text/{resourceId}");
    const dynamic = await client.readResource("demo://resource/dynamic/text/7");
    expect(dynamic.contents[0]?.uri).toBe("demo://resource/dynamic/text/7");
    const prompt = await client.getPrompt("simple-prompt");
    expect(prompt.messages.length).toBeGreaterThan(0);
  });

  it("delivers the upstream's resources/updated to a subscriptions/listen stream", async () => {
    await client.callTool("toggle-subscriber-updates", {});
    const uri = "demo://resource/static/document/architecture.md";
    const subscription = client.subscribe({ resourceSubscriptions: [uri] });
    try {
      await within(subscription.acknowledged, 10_000, "the listen acknowledgement");
      const first = await within(subscription.next(), 20_000, "a resources/updated notification");
      expect(first.value).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
    } finally {
      await subscription.close();
    }
  });
});
