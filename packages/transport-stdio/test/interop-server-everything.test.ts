import { createPeer } from "@mcpkit/jsonrpc";
import { serverEverythingEntry } from "@mcpkit/peers";
import { describe, expect, it } from "vitest";
import { spawnStdioTransport } from "../src/index.js";

describe("interop: @modelcontextprotocol/server-everything over stdio", () => {
  it("initializes, lists tools and calls echo", async () => {
    const transport = spawnStdioTransport({
      command: process.execPath,
      args: [serverEverythingEntry(), "stdio"],
      stderr: "pipe",
    });
    const peer = createPeer(transport, { timeout: 20_000 });
    // server-everything may send logging/list-changed notifications and ask for roots; answer politely.
    peer.onRequest("roots/list", () => ({ roots: [] }));
    peer.onRequest("ping", () => ({}));
    try {
      await peer.start();
      const init = (await peer.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "mcpkit-transport-stdio-test", version: "0.0.0" },
      })) as { protocolVersion: string; serverInfo: { name: string }; capabilities: Record<string, unknown> };
      expect(init.protocolVersion).toBe("2025-11-25");
      expect(init.capabilities).toHaveProperty("tools");
      expect(typeof init.serverInfo.name).toBe("string");
      await peer.notify("notifications/initialized");

      const list = (await peer.request("tools/list", {})) as { tools: Array<{ name: string }> };
      expect(list.tools.map((t) => t.name)).toContain("echo");

      const call = (await peer.request("tools/call", {
        name: "echo",
        arguments: { message: "héllo 🌍" },
      })) as {
        content: Array<{ type: string; text: string }>;
        isError?: boolean;
      };
      expect(call.isError ?? false).toBe(false);
      expect(call.content[0]).toMatchObject({ type: "text" });
      expect(call.content[0]!.text).toContain("héllo 🌍");
    } finally {
      await peer.close();
      await transport.close();
    }
    await expect(transport.exited).resolves.toMatchObject({ code: expect.any(Number) });
  });
});
