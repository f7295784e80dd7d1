import { PassThrough, Writable } from "node:stream";
import { ConnectionClosedError, createPeer, JsonRpcError, TransportError } from "@mcpkit/jsonrpc";
import { transportConformance } from "@mcpkit/test-kit";
import { describe, expect, it } from "vitest";
import { createStreamTransport } from "./stream-transport.js";

function passThroughPair(options: { maxFrameBytes?: number } = {}) {
  const up = new PassThrough();
  const down = new PassThrough();
  const client = createStreamTransport({ readable: down, writable: up, ...options });
  const server = createStreamTransport({ readable: up, writable: down, ...options });
  return { client, server, up, down };
}

transportConformance("stdio over PassThrough streams", async () => {
  const { client, server } = passThroughPair();
  return { client, server };
});

/** Collects what a peer writes, line by line. */
function lineCollector() {
  const lines: unknown[] = [];
  const waiters: Array<() => void> = [];
  let partial = "";
  const stream = new PassThrough();
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    for (const part of parts) lines.push(JSON.parse(part));
    for (const wake of waiters.splice(0)) wake();
  });
  async function next(count: number): Promise<unknown[]> {
    while (lines.length < count) await new Promise<void>((r) => waiters.push(r));
    return lines.slice(0, count);
  }
  return { stream, lines, next };
}

describe("createStreamTransport", () => {
  it("answers malformed JSON with -32700 and an over-cap request with -32600, then serves the next request", async () => {
    const input = new PassThrough();
    const output = lineCollector();
    const server = createPeer(
      createStreamTransport({ readable: input, writable: output.stream, maxFrameBytes: 1024 }),
    );
    server.onRequest("echo", (params) => params);
    await server.start();
    try {
      input.write("{not json\n");
      input.write(`{"jsonrpc":"2.0","id":7,"method":"echo","params":{"pad":"${"z".repeat(4096)}"}}\n`);
      input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "echo", params: { ok: true } })}\n`);
      const [parse, overCap, next] = (await output.next(3)) as Array<Record<string, any>>;
      expect(parse).toMatchObject({ id: null, error: { code: -32700 } });
      expect(overCap).toMatchObject({ id: 7, error: { code: -32600 } });
      expect(next).toEqual({ jsonrpc: "2.0", id: 8, result: { ok: true } });
    } finally {
      await server.close();
    }
  });

  it("writes one JSON line per message, with newlines inside strings escaped", async () => {
    const input = new PassThrough();
    const output = lineCollector();
    const transport = createStreamTransport({ readable: input, writable: output.stream });
    await transport.start({ onMessage() {}, onInvalid() {}, onClose() {} });
    await transport.send({ jsonrpc: "2.0", method: "note", params: { text: "a\nb\r\nc\u2028" } });
    const [line] = await output.next(1);
    expect(line).toEqual({ jsonrpc: "2.0", method: "note", params: { text: "a\nb\r\nc\u2028" } });
    await transport.close();
  });

  it("keeps order and waits for drain when the writable is full, without growing its buffer", async () => {
    const chunks: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, callback) {
        chunks.push(chunk.toString());
        void gate.then(() => callback());
      },
    });
    const transport = createStreamTransport({ readable: new PassThrough(), writable: slow });
    await transport.start({ onMessage() {}, onInvalid() {}, onClose() {} });
    const sends = Array.from({ length: 20 }, (_, i) =>
      transport.send({ jsonrpc: "2.0", method: "n", params: { i, pad: "p".repeat(100) } }),
    );
    let settled = 0;
    for (const send of sends) void send.then(() => settled++);
    await sends[0];
    await new Promise((r) => setImmediate(r));
    // Over the high-water mark: the first line was handed over, the rest wait in order for drain.
    expect(settled).toBe(1);
    expect(slow.writableLength).toBeLessThan(200);
    release();
    await Promise.all(sends);
    await new Promise<void>((r) => slow.end(r));
    const order = chunks
      .join("")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { params: { i: number } }).params.i);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    await transport.close();
  });

  it("closes with ConnectionClosedError when the input ends, failing pending requests with it", async () => {
    const { client, up, down } = passThroughPair();
    const peer = createPeer(client);
    await peer.start();
    const pending = peer.request("never", {});
    await new Promise((r) => up.once("data", r));
    down.end();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toMatch(/closed the stream/);
    await expect(peer.closed).resolves.toBe(error);
  });

  it("rejects a send after close with ConnectionClosedError and ends the writable", async () => {
    const { client, up } = passThroughPair();
    await client.start({ onMessage() {}, onInvalid() {}, onClose() {} });
    const ended = new Promise((r) => up.once("end", r));
    up.resume();
    await client.close();
    await ended;
    await expect(client.send({ jsonrpc: "2.0", method: "late" })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
    expect(client.isClosed).toBe(true);
  });

  it("turns a failing writable into a TransportError close, never an uncaught error", async () => {
    const broken = new Writable({
      write(_chunk, _enc, callback) {
        callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const transport = createStreamTransport({ readable: new PassThrough(), writable: broken });
    const peer = createPeer(transport);
    await peer.start();
    const reason = await Promise.all([peer.request("x", {}).catch((e: unknown) => e), peer.closed]);
    expect(reason[1]).toBeInstanceOf(TransportError);
    expect((reason[1] as Error).cause).toMatchObject({ code: "EPIPE" });
    expect(reason[0]).toBe(reason[1]);
  });

  it("buffers input that arrives before start and refuses a second start", async () => {
    const input = new PassThrough();
    input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "early" })}\n`);
    const transport = createStreamTransport({ readable: input, writable: new PassThrough() });
    const seen: unknown[] = [];
    await transport.start({ onMessage: (v) => seen.push(v), onInvalid() {}, onClose() {} });
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([{ jsonrpc: "2.0", method: "early" }]);
    await expect(transport.start({ onMessage() {}, onInvalid() {}, onClose() {} })).rejects.toThrow(/twice/);
    await transport.close();
  });

  it("reports a line that is not JSON with the line quoted (a banner printed to stdout)", async () => {
    const input = new PassThrough();
    const transport = createStreamTransport({ readable: input, writable: new PassThrough() });
    const invalid: Error[] = [];
    await transport.start({ onMessage() {}, onInvalid: (e) => invalid.push(e), onClose() {} });
    input.write("Server listening on port 3000\r\n");
    input.write(`${"x".repeat(300)}\n`);
    await new Promise((r) => setImmediate(r));
    expect(invalid.map((e) => e.message)).toEqual([
      'Not JSON: "Server listening on port 3000"',
      `Not JSON: "${"x".repeat(200)}…"`,
    ]);
    expect(invalid[0]).toBeInstanceOf(SyntaxError);
    await transport.close();
  });

  it("passes a JSON-RPC error from the other side through unchanged", async () => {
    const { client, server } = passThroughPair();
    const a = createPeer(client);
    const b = createPeer(server);
    b.onRequest("fail", () => {
      throw new JsonRpcError(-32050, "nope", { why: 1 });
    });
    await b.start();
    await a.start();
    await expect(a.request("fail")).rejects.toMatchObject({
      code: -32050,
      message: "nope",
      data: { why: 1 },
    });
    await a.close();
    await b.close();
  });
});
