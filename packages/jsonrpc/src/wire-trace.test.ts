import { describe, expect, it } from "vitest";
import { createInMemoryPair } from "./in-memory.js";
import { createPeer } from "./peer.js";
import { formatWireEvent, tapTransport, type WireEvent } from "./wire-trace.js";

describe("tapTransport and formatWireEvent", () => {
  it("prints every message of a short exchange, both ways, one line each", async () => {
    const events: WireEvent[] = [];
    const [a, b] = createInMemoryPair();
    const client = createPeer(tapTransport(a, (e) => events.push(e)));
    const server = createPeer(b);
    server.onRequest("tools/call", () => ({ content: [{ type: "text", text: "x".repeat(300) }] }));
    server.onRequest("nope", () => {
      throw new Error("hidden");
    });
    await client.start();
    await server.start();
    await client.request("tools/call", { name: "echo" });
    await client.notify("notifications/initialized");
    await client.request("nope").catch(() => {});
    await client.close();
    // Timing varies: fixed here, the rest of each line is asserted whole.
    const lines = events.map((e) =>
      formatWireEvent({ ...e, elapsed: 1.25 }, { transport: "stdio", era: "2025-11-25", maxBody: 60 }),
    );
    expect(lines).toEqual([
      '+     1.3ms → stdio 2025-11-25 tools/call #1 71B {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"nam…',
      '+     1.3ms ← stdio 2025-11-25 result #1 373B {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text",…',
      '+     1.3ms → stdio 2025-11-25 notifications/initialized (notification) 54B {"jsonrpc":"2.0","method":"notifications/initialized"}',
      '+     1.3ms → stdio 2025-11-25 nope #2 40B {"jsonrpc":"2.0","id":2,"method":"nope"}',
      '+     1.3ms ← stdio 2025-11-25 error #2 75B {"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"In…',
    ]);
  });

  it("keeps the transport's traits and survives a throwing tap", async () => {
    const [a, b] = createInMemoryPair({ perRequestStream: true });
    const tapped = tapTransport(a, () => {
      throw new Error("tap bug");
    });
    expect(tapped.traits.perRequestStream).toBe(true);
    const client = createPeer(tapped);
    const server = createPeer(b);
    server.onRequest("ping", () => ({}));
    await client.start();
    await server.start();
    expect(await client.request("ping")).toEqual({});
    await client.close();
  });
});
