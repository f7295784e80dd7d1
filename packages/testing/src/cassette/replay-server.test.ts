import { createInMemoryPair, type JsonRpcMessage } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import type { Cassette, CassetteEvent } from "./cassette.js";
import { type ReplayMatch, replayServer } from "./replay-server.js";

const client = (message: object): CassetteEvent => ({
  from: "client",
  message: { jsonrpc: "2.0", ...message } as JsonRpcMessage,
});
const server = (message: object): CassetteEvent => ({
  from: "server",
  message: { jsonrpc: "2.0", ...message } as JsonRpcMessage,
});

const cassette: Cassette = {
  format: "mcpkit-cassette",
  version: 1,
  era: "legacy",
  redacted: [],
  events: [
    client({ id: 1, method: "tools/list" }),
    server({ id: 1, result: { tools: [] } }),
    client({ id: 2, method: "prompts/list" }),
    server({ id: 2, result: { prompts: [] } }),
    client({ id: 3, method: "tools/call", params: { name: "summarize" } }),
    server({ id: "s1", method: "sampling/createMessage", params: { maxTokens: 5 } }),
    client({ id: "s1", result: { model: "m", role: "assistant", content: { type: "text", text: "ok" } } }),
    server({ method: "notifications/message", params: { level: "info", data: "sampled" } }),
    server({ id: 3, result: { content: [{ type: "text", text: "done" }] } }),
  ],
};

async function open(match?: ReplayMatch) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await replayServer(cassette, match === undefined ? {} : { match }).connect(serverEnd);
  const got: Array<Record<string, unknown>> = [];
  await clientEnd.start({
    onMessage: (m) => got.push(m as Record<string, unknown>),
    onInvalid: () => {},
    onClose: () => {},
  });
  const send = (m: object) => clientEnd.send({ jsonrpc: "2.0", ...m } as JsonRpcMessage);
  return { got, send, close: () => clientEnd.close() };
}

describe("replayServer", () => {
  it("keeps the recorded order by default: an early request is answered at once, naming the one expected", async () => {
    const s = await open();
    await s.send({ id: 10, method: "prompts/list" });
    await expect.poll(() => s.got.length).toBe(1);
    expect(s.got[0]).toMatchObject({ id: 10, error: { code: -32602 } });
    expect((s.got[0]!.error as { message: string }).message).toBe(
      "replay: no recorded request matches prompts/list; nearest is events[2] prompts/list, it comes out of order",
    );
    await s.close();
  });

  it("with ignoreOrder, answers independent requests in any order, with the client's ids", async () => {
    const s = await open({ ignoreOrder: true });
    await s.send({ id: 10, method: "prompts/list" });
    await s.send({ id: 11, method: "tools/list" });
    await expect.poll(() => s.got.length).toBe(2);
    expect(s.got).toEqual([
      { jsonrpc: "2.0", id: 10, result: { prompts: [] } },
      { jsonrpc: "2.0", id: 11, result: { tools: [] } },
    ]);
    await s.close();
  });

  it("sends a server-to-client request and holds the rest of the exchange until the client answers it", async () => {
    const s = await open({ ignoreOrder: true });
    await s.send({ id: 7, method: "tools/call", params: { name: "summarize" } });
    await expect.poll(() => s.got.length).toBe(1);
    expect(s.got[0]).toMatchObject({ id: "s1", method: "sampling/createMessage" });
    await s.send({
      id: "s1",
      result: { model: "m", role: "assistant", content: { type: "text", text: "ok" } },
    });
    await expect.poll(() => s.got.length).toBe(3);
    expect(s.got.slice(1)).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "sampled" } },
      { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "done" }] } },
    ]);
    await s.close();
  });

  it("answers a method the cassette never saw with -32601", async () => {
    const s = await open();
    await s.send({ id: 1, method: "resources/list" });
    await expect.poll(() => s.got.length).toBe(1);
    expect(s.got[0]).toMatchObject({
      id: 1,
      error: { code: -32601, data: { nearest: 0, path: "$.method" } },
    });
    await s.close();
  });
});
