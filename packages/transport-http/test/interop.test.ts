import { createPeer, type Peer, type Transport } from "@mcpkit/jsonrpc";
import { type RunningHttpServer, startServerEverythingHttp } from "@mcpkit/peers";
import { afterEach, describe, expect, it } from "vitest";
import { createSseClientTransport, createStreamableHttpClientTransport } from "../src/index.js";

// Interop with the official reference server, run as a real child process from the registry package.
let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
  cleanups = [];
});

async function exercise(transport: Transport): Promise<void> {
  const client: Peer = createPeer(transport, { timeout: 15_000 });
  cleanups.push(() => client.close());
  await client.start();
  const init = (await client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "mcpkit-transport-http-test", version: "0.0.0" },
  })) as { protocolVersion: string; serverInfo: { name: string } };
  expect(typeof init.protocolVersion).toBe("string");
  expect(init.serverInfo.name).toMatch(/everything/i);
  await client.notify("notifications/initialized");
  const list = (await client.request("tools/list", {})) as { tools: Array<{ name: string }> };
  expect(list.tools.map((t) => t.name)).toContain("echo");
  const result = (await client.request("tools/call", {
    name: "echo",
    arguments: { message: "héllo 🌍" },
  })) as {
    content: Array<{ type: string; text: string }>;
  };
  expect(result.content[0]).toEqual({ type: "text", text: "Echo: héllo 🌍" });
}

describe("interop with @modelcontextprotocol/server-everything", () => {
  it("Streamable HTTP (legacy session): initialize, tools/list, tools/call echo", async () => {
    const server: RunningHttpServer = await startServerEverythingHttp({ mode: "streamableHttp" });
    cleanups.push(() => server.close());
    const transport = createStreamableHttpClientTransport({ url: server.url, era: "legacy" });
    await exercise(transport);
    expect(transport.sessionId).toBeTruthy();
    expect(transport.protocolVersion).toBe("2025-11-25");
  });

  it("the 2024-11-05 HTTP+SSE fallback: GET, endpoint event, POST there", async () => {
    const server = await startServerEverythingHttp({ mode: "sse" });
    cleanups.push(() => server.close());
    const transport = createSseClientTransport({ url: server.url });
    await exercise(transport);
    expect(transport.endpoint?.origin).toBe(new URL(server.url).origin);
  });
});
