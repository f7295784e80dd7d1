// A 2026-07-28-only upstream (the fixture served with eras: "modern", a real child process over loopback
// HTTP) behind the gateway, reached by a 2025-11-25 client: the upstream's input_required rounds become
// real server-to-client requests in the client's session; progress passes through.
import type { Client } from "@mcpkit/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, type RunningGateway, startGateway, startHttpFixture } from "./support/harness.js";

describe("a modern-only upstream through the gateway to a 2025-11-25 client", () => {
  let upstream: { url: string; close(): Promise<void> };
  let running: RunningGateway;
  let client: Client;
  const asked: Array<{ kind: string; era: string }> = [];

  beforeAll(async () => {
    upstream = await startHttpFixture();
    running = await startGateway({
      mcpServers: { modern: { url: upstream.url } },
      gateway: { upstreams: { modern: { era: "modern" } } },
    });
    client = await connectClient(running.endpoint.url, "legacy", {
      handlers: {
        elicitation: (_params, context) => {
          asked.push({ kind: "elicitation", era: context.era });
          return { action: "accept", content: { name: "Grace" } } as never;
        },
        sampling: (_params, context) => {
          asked.push({ kind: "sampling", era: context.era });
          return { role: "assistant", content: { type: "text", text: "hi there" }, model: "m" };
        },
        roots: (context) => {
          asked.push({ kind: "roots", era: context.era });
          return [{ uri: "file:///work", name: "work" }];
        },
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await running?.close();
    await upstream?.close();
  });

  it("answers the upstream's three input rounds with real requests in the legacy session", async () => {
    expect(client.era).toBe("legacy");
    const result = await client.callTool("ask", {});
    expect(result.content).toBe("era=modern name=Grace sampled=hi there roots=file:///work");
    expect(asked).toEqual([
      { kind: "elicitation", era: "legacy" },
      { kind: "sampling", era: "legacy" },
      { kind: "roots", era: "legacy" },
    ]);
  });

  it("passes progress and log lines through", async () => {
    const logs: unknown[] = [];
    const logged = await connectClient(running.endpoint.url, "legacy", {
      onLog: (line) => logs.push(line.data),
    });
    try {
      await logged.setLogLevel("info");
      expect((await logged.callTool("steps", {})).content).toBe("done");
      expect(logs).toEqual(["step one", "step two"]);
    } finally {
      await logged.close();
    }
    const steps: Array<{ progress: number; message?: string | undefined }> = [];
    const result = await client.callTool(
      "steps",
      {},
      { onProgress: (p) => steps.push({ progress: p.progress, message: p.message }) },
    );
    expect(result.content).toBe("done");
    expect(steps).toEqual([
      { progress: 1, message: "one" },
      { progress: 2, message: "two" },
    ]);
  });

  it("passes a JSON-RPC error through and reads resources and prompts", async () => {
    await expect(client.callTool("greet", {})).resolves.toMatchObject({ isError: true });
    const read = await client.readResource("fixture://note");
    expect(read.contents[0]).toMatchObject({ text: "a note" });
    const prompt = await client.getPrompt("hello");
    expect(JSON.stringify(prompt.messages)).toContain("Say hello");
  });
});
