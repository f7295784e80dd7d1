import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type SendOptions,
  type Transport,
} from "@mcpkit/jsonrpc";
import type { ProtocolEra } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { wrapTransport } from "./wire.js";

function recording(traits: Transport["traits"]) {
  const sent: Array<[JsonRpcMessage, SendOptions | undefined]> = [];
  const inner: Transport = {
    traits,
    start: async () => {},
    send: async (m, o) => {
      sent.push([m, o]);
    },
    close: async () => {},
  };
  return { inner, sent };
}

describe("wrapTransport", () => {
  it("answers perRequestStream for the client's era on a transport that carries headers", () => {
    const { inner } = recording({ perRequestStream: false, perRequestHeaders: true });
    let era: ProtocolEra = "modern";
    const wire = wrapTransport(inner, {
      era: () => era,
      refuse: () => undefined,
      explicitCancel: () => false,
    });
    expect(wire.traits.perRequestStream).toBe(true);
    era = "legacy";
    expect(wire.traits.perRequestStream).toBe(false);
  });

  it("keeps the traits of any other transport", () => {
    const { inner } = recording({ perRequestStream: false });
    const wire = wrapTransport(inner, {
      era: () => "modern",
      refuse: () => undefined,
      explicitCancel: () => false,
    });
    expect(wire.traits).toBe(inner.traits);
  });

  it("passes the send options down untouched and refuses sends while the client closes", async () => {
    const { inner, sent } = recording({ perRequestStream: false });
    let closing = false;
    const wire = wrapTransport(inner, {
      era: () => "modern",
      refuse: () => (closing ? new ConnectionClosedError("closing") : undefined),
      explicitCancel: () => false,
    });
    const options = { headers: { "mcp-method": "x" } };
    await wire.send({ jsonrpc: "2.0", id: 1, method: "x" }, options);
    expect(sent[0]![1]).toBe(options);
    closing = true;
    await expect(wire.send({ jsonrpc: "2.0", id: 2, method: "x" })).rejects.toThrow(ConnectionClosedError);
  });

  it("sends notifications/cancelled itself for an aborted legacy request on a stream-per-request transport", async () => {
    const { inner, sent } = recording({ perRequestStream: true });
    const wire = wrapTransport(inner, {
      era: () => "legacy",
      refuse: () => undefined,
      explicitCancel: (method) => method !== "initialize",
    });
    const controller = new AbortController();
    await wire.send({ jsonrpc: "2.0", id: 3, method: "tools/call" }, { signal: controller.signal });
    controller.abort(new Error("user"));
    expect(sent[1]![0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 3, reason: "user" },
    });
  });
});
