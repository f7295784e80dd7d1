import { afterEach, describe, expect, it } from "vitest";
import { TransportError } from "./errors.js";
import type { JsonRpcId, JsonRpcMessage } from "./messages.js";
import { createPeer } from "./peer.js";
import type { Peer } from "./peer-types.js";
import type { SendOptions, Transport, TransportSink } from "./transport.js";

/** Records every send with its options; answers nothing unless told. */
function recordingTransport(perRequestStream: boolean) {
  const sends: { message: JsonRpcMessage; options: SendOptions | undefined }[] = [];
  let sink!: TransportSink;
  const transport: Transport = {
    traits: { perRequestStream, perRequestHeaders: true },
    async start(s) {
      sink = s;
    },
    async send(message, options) {
      sends.push({ message, options });
    },
    async close(reason) {
      sink.onClose(reason);
    },
  };
  return { transport, sends, answer: (id: JsonRpcId) => sink.onMessage({ jsonrpc: "2.0", id, result: {} }) };
}

describe("what a request passes down to Transport.send", () => {
  const peers: Peer[] = [];
  afterEach(async () => {
    for (const p of peers.splice(0)) await p.close();
  });
  async function started(t: Transport) {
    const peer = createPeer(t);
    peers.push(peer);
    await peer.start();
    return peer;
  }

  it("hands the request's headers to the transport untouched, beside the stream's signal", async () => {
    const t = recordingTransport(true);
    const peer = await started(t.transport);
    const headers = Object.freeze({ "mcp-method": "tools/call" });
    const call = peer.request("tools/call", {}, { headers });
    expect(t.sends[0]!.options!.headers).toBe(headers);
    expect(t.sends[0]!.options!.signal).toBeInstanceOf(AbortSignal);
    t.answer(1);
    await call;
  });

  it("sends no options object when nothing goes down (stdio: no stream, no headers)", async () => {
    const t = recordingTransport(false);
    const peer = await started(t.transport);
    const call = peer.request("x", {});
    expect(t.sends[0]!.options).toBeUndefined();
    t.answer(1);
    await call;
  });

  it("tells onId the assigned id before the message reaches the transport", async () => {
    const t = recordingTransport(false);
    const peer = await started(t.transport);
    const seen: { id: JsonRpcId; sendsBefore: number }[] = [];
    const first = peer.request("a", {}, { onId: (id) => seen.push({ id, sendsBefore: t.sends.length }) });
    const second = peer.request("b", {}, { onId: (id) => seen.push({ id, sendsBefore: t.sends.length }) });
    expect(seen).toEqual([
      { id: 1, sendsBefore: 0 },
      { id: 2, sendsBefore: 1 },
    ]);
    expect((t.sends[1]!.message as { id: JsonRpcId }).id).toBe(2);
    t.answer(1);
    t.answer(2);
    await Promise.all([first, second]);
  });

  it("fails the request as a send failure when onId throws, and sends nothing", async () => {
    const t = recordingTransport(false);
    const peer = await started(t.transport);
    const boom = new Error("boom");
    const error = await peer
      .request(
        "a",
        {},
        {
          onId: () => {
            throw boom;
          },
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).cause).toBe(boom);
    expect(t.sends).toHaveLength(0);
    expect(peer.pendingCount).toBe(0);
  });
});
