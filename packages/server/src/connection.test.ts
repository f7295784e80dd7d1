import { createInMemoryPair, createPeer } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { makeCore, V } from "../test/unit-kit.js";
import { connect } from "./connection.js";

describe("connect", () => {
  it("serves one transport until it closes, and forgets it then", async () => {
    const core = makeCore();
    core.registry.addTool("t", {}, () => "ok");
    const [client, server] = createInMemoryPair();
    const connection = await connect(core, server);
    const peer = createPeer(client);
    await peer.start();
    expect(connection.era).toBeUndefined();
    expect(core.connections.size).toBe(1);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": V,
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const result = await peer.request("tools/call", { name: "t", _meta: meta });
    expect(result).toEqual({ content: [{ type: "text", text: "ok" }], resultType: "complete" });
    expect(connection.era).toBe("modern");
    await connection.close();
    await connection.closed;
    expect(core.connections.size).toBe(0);
    await peer.close();
  });

  it("a legacy session is initialized by notifications/initialized", async () => {
    const core = makeCore();
    const [client, server] = createInMemoryPair();
    const connection = await connect(core, server);
    const peer = createPeer(client);
    await peer.start();
    await peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: {} });
    expect(connection.protocolVersion).toBe("2025-11-25");
    const [conn] = core.connections;
    expect(conn!.session!.initialized).toBe(false);
    await peer.notify("notifications/initialized");
    await peer.request("ping");
    expect(conn!.session!.initialized).toBe(true);
    await peer.close();
    await connection.closed;
  });
});
