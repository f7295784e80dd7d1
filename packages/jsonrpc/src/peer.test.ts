import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionClosedError, FramingError, JsonRpcError, TimeoutError } from "./errors.js";
import { createInMemoryPair } from "./in-memory.js";
import type { JsonRpcMessage } from "./messages.js";
import { createPeer } from "./peer.js";
import type { Peer, PeerOptions } from "./peer-types.js";
import type { Transport, TransportSink } from "./transport.js";

/** A transport under the test's hand: it records what is sent and lets the test inject input. */
function scriptedTransport(perRequestStream = false) {
  const sent: JsonRpcMessage[] = [];
  let sink!: TransportSink;
  let closed = false;
  const transport: Transport = {
    traits: { perRequestStream },
    async start(s) {
      sink = s;
    },
    async send(message) {
      if (closed) throw new ConnectionClosedError();
      sent.push(message);
    },
    async close(reason) {
      if (closed) return;
      closed = true;
      sink.onClose(reason);
    },
  };
  return {
    transport,
    sent,
    inject: (value: unknown) => sink.onMessage(value),
    invalid: (error: Error) => sink.onInvalid(error),
    drop: (reason?: Error) => sink.onClose(reason),
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("Peer", () => {
  const peers: Peer[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const p of peers.splice(0)) await p.close();
  });
  async function started(t: Transport, options?: PeerOptions) {
    const peer = createPeer(t, options);
    peers.push(peer);
    await peer.start();
    return peer;
  }

  it("refuses timeouts that are NaN, zero or negative, and accepts Infinity", async () => {
    const s = scriptedTransport();
    expect(() => createPeer(s.transport, { timeout: 0 })).toThrow(/timeout/);
    const peer = await started(s.transport);
    await expect(peer.request("x", {}, { timeout: Number.NaN })).rejects.toThrow(RangeError);
    await expect(peer.request("x", {}, { timeout: -5 })).rejects.toThrow(RangeError);
    const call = peer.request("x", {}, { timeout: Number.POSITIVE_INFINITY });
    await flush();
    s.inject({ jsonrpc: "2.0", id: (s.sent[0] as { id: number }).id, result: { ok: 1 } });
    await expect(call).resolves.toEqual({ ok: 1 });
  });

  it("refuses a request before start()", async () => {
    const peer = createPeer(scriptedTransport().transport);
    await expect(peer.request("x")).rejects.toThrow(/start/);
  });

  it("times out with TimeoutError, sends notifications/cancelled, and drops the late response", async () => {
    vi.useFakeTimers();
    const s = scriptedTransport();
    const errors: Error[] = [];
    const peer = await started(s.transport, { timeout: 1000, onError: (e) => errors.push(e) });
    const call = peer.request("slow", {});
    const outcome = call.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await outcome).toBeInstanceOf(TimeoutError);
    expect(s.sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 1 } });
    s.inject({ jsonrpc: "2.0", id: 1, result: {} });
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/unknown or finished/)]);
    expect(peer.pendingCount).toBe(0);
  });

  it("resets the timeout on progress, bounded by maxTotalTimeout", async () => {
    vi.useFakeTimers();
    const s = scriptedTransport();
    const peer = await started(s.transport);
    const seen: number[] = [];
    const call = peer
      .request("long", {}, { timeout: 1000, maxTotalTimeout: 2500, onProgress: (p) => seen.push(p.progress) })
      .catch((e: unknown) => e);
    const token = (s.sent[0] as unknown as { params: { _meta: { progressToken: number } } }).params._meta
      .progressToken;
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(800);
      s.inject({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: i },
      });
    }
    // 2400 ms have passed: without progress the 1000 ms timeout would have fired long ago.
    expect(peer.pendingCount).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    const error = (await call) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeout).toBe(2500);
    expect(error.message).toMatch(/total timeout of 2500 ms/);
    expect(seen).toEqual([1, 2, 3]);
  });

  it("does not reset on progress when told not to", async () => {
    vi.useFakeTimers();
    const s = scriptedTransport();
    const peer = await started(s.transport);
    const call = peer
      .request("long", {}, { timeout: 1000, resetTimeoutOnProgress: false, onProgress: () => {} })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(800);
    s.inject({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    await vi.advanceTimersByTimeAsync(201);
    expect(await call).toBeInstanceOf(TimeoutError);
  });

  it("with concurrency 1, runs one exchange at a time and starts each timeout at its turn", async () => {
    vi.useFakeTimers();
    const s = scriptedTransport();
    const peer = await started(s.transport, { concurrency: 1, timeout: 1000 });
    const first = peer.request("a", {});
    const second = peer.request("b", {});
    await vi.advanceTimersByTimeAsync(0);
    expect(s.sent.map((m) => (m as { method: string }).method)).toEqual(["a"]);
    await vi.advanceTimersByTimeAsync(900);
    s.inject({ jsonrpc: "2.0", id: 1, result: "A" });
    await expect(first).resolves.toBe("A");
    await vi.advanceTimersByTimeAsync(0);
    expect(s.sent.map((m) => (m as { method: string }).method)).toEqual(["a", "b"]);
    // b waited 900 ms in the queue; its own 1000 ms count only from now.
    await vi.advanceTimersByTimeAsync(900);
    s.inject({ jsonrpc: "2.0", id: 2, result: "B" });
    await expect(second).resolves.toBe("B");
  });

  it("does not send notifications/cancelled on a per-request-stream transport, but aborts the send signal", async () => {
    const signals: AbortSignal[] = [];
    const s = scriptedTransport(true);
    const send = s.transport.send.bind(s.transport);
    s.transport.send = async (m, o) => {
      if (o?.signal) signals.push(o.signal);
      return send(m, o);
    };
    const peer = await started(s.transport);
    const controller = new AbortController();
    const call = peer.request("x", {}, { signal: controller.signal });
    await flush();
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    expect(s.sent).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
  });

  it("rejects with the abort reason for an already-aborted signal, sending nothing", async () => {
    const s = scriptedTransport();
    const peer = await started(s.transport);
    const reason = new Error("already");
    await expect(peer.request("x", {}, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(s.sent).toHaveLength(0);
  });

  it("answers a malformed request with its id, bad JSON with -32700 and id null, an over-cap request with -32600", async () => {
    const s = scriptedTransport();
    await started(s.transport);
    s.inject({ jsonrpc: "2.0", id: 4, method: 12 });
    s.invalid(new SyntaxError("Unexpected token"));
    s.invalid(new FramingError("too big", 20_000_000, '{"jsonrpc":"2.0","id":"big-1","method":"tools/call"'));
    await flush();
    expect(s.sent).toEqual([
      { jsonrpc: "2.0", id: 4, error: { code: -32600, message: expect.any(String) } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      {
        jsonrpc: "2.0",
        id: "big-1",
        error: { code: -32600, message: expect.stringMatching(/Invalid Request/) },
      },
    ]);
  });

  it("fails only the affected request when its answer was over the cap", async () => {
    const s = scriptedTransport();
    const peer = await started(s.transport);
    const call = peer.request("x", {});
    await flush();
    s.invalid(new FramingError("too big", 20_000_000, '{"jsonrpc":"2.0","id":1,"result":{"content":'));
    await expect(call).rejects.toBeInstanceOf(FramingError);
  });

  it("answers each element of a batch", async () => {
    const s = scriptedTransport();
    const peer = await started(s.transport);
    peer.onRequest("double", (p: { n: number }) => p.n * 2);
    s.inject([
      { jsonrpc: "2.0", id: 1, method: "double", params: { n: 2 } },
      { jsonrpc: "2.0", id: 2, method: "double", params: { n: 5 } },
      { jsonrpc: "2.0", id: 3, method: "nope" },
    ]);
    await flush();
    expect(s.sent).toEqual([
      { jsonrpc: "2.0", id: 1, result: 4 },
      { jsonrpc: "2.0", id: 2, result: 10 },
      { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found: nope" } },
    ]);
  });

  it("aborts a handler on notifications/cancelled and sends no response for it", async () => {
    const s = scriptedTransport();
    const peer = await started(s.transport);
    let aborted = false;
    peer.onRequest("slow", (_p, ctx) => {
      return new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          aborted = true;
          resolve("too late");
        });
      });
    });
    s.inject({ jsonrpc: "2.0", id: 9, method: "slow" });
    s.inject({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } });
    await flush();
    expect(aborted).toBe(true);
    expect(s.sent).toEqual([]);
  });

  it("answers nothing and reports nothing when the request's own stream closed (info.signal)", async () => {
    const [a, b] = createInMemoryPair({ perRequestStream: true });
    const errors: Error[] = [];
    const server = await started(b, { onError: (e) => errors.push(e) });
    const client = await started(a);
    let sawAbort!: () => void;
    const aborted = new Promise<void>((r) => (sawAbort = r));
    server.onRequest("slow", (_p, ctx) => {
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => {
          sawAbort();
          reject(ctx.signal.reason);
        });
      });
    });
    const controller = new AbortController();
    const call = client.request("slow", {}, { signal: controller.signal });
    await flush();
    controller.abort(new Error("client left"));
    await expect(call).rejects.toThrow("client left");
    await aborted;
    await flush();
    expect(errors).toEqual([]);
  });

  it("reports handler throws to onError, never to the peer", async () => {
    const s = scriptedTransport();
    const errors: Error[] = [];
    const peer = await started(s.transport, { onError: (e) => errors.push(e) });
    peer.onRequest("boom", async () => {
      throw new TypeError("cannot read /home/secret");
    });
    peer.onNotification("note", () => {
      throw new Error("note failed");
    });
    s.inject({ jsonrpc: "2.0", id: 1, method: "boom" });
    s.inject({ jsonrpc: "2.0", method: "note" });
    await flush();
    expect(s.sent).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } }]);
    expect(errors.map((e) => e.message).sort()).toEqual(["cannot read /home/secret", "note failed"]);
  });

  it("rejects every pending request with the transport's close reason", async () => {
    const s = scriptedTransport();
    const peer = await started(s.transport);
    const crash = new ConnectionClosedError("child died");
    const calls = [peer.request("a"), peer.request("b")];
    s.drop(crash);
    for (const c of calls) await expect(c).rejects.toBe(crash);
    await expect(peer.closed).resolves.toBe(crash);
  });

  it("never reuses an id while it is in flight", async () => {
    const s = scriptedTransport();
    const peer = await started(s.transport);
    for (let i = 0; i < 50; i++) void peer.request("x").catch(() => {});
    await flush();
    const ids = s.sent.map((m) => (m as { id: number }).id);
    expect(new Set(ids).size).toBe(50);
  });

  it("property: resolves the right promise whatever order responses arrive in", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 40 })
          .chain((n) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n })),
        async (order) => {
          const s = scriptedTransport();
          const peer = createPeer(s.transport);
          await peer.start();
          const calls = order.map((_, i) => peer.request("echo", { i }));
          await flush();
          for (const i of order) {
            const msg = s.sent[i] as unknown as { id: number; params: { i: number } };
            s.inject({ jsonrpc: "2.0", id: msg.id, result: msg.params.i });
          }
          const results = await Promise.all(calls);
          expect(results).toEqual(order.map((_, i) => i));
          expect(peer.pendingCount).toBe(0);
          await peer.close();
        },
      ),
      { numRuns: 100 },
    );
  });

  it("property: an abort at any moment leaves nothing pending and every call settled", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            abortAt: fc.integer({ min: 0, max: 4 }),
            releaseAt: fc.integer({ min: 0, max: 4 }),
            answer: fc.boolean(),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        async (plans) => {
          const [a, b] = createInMemoryPair();
          const client = createPeer(a);
          const server = createPeer(b);
          const gates = new Map<number, () => void>();
          server.onRequest(
            "wait",
            (p: { i: number; answer: boolean }, ctx) =>
              new Promise((resolve, reject) => {
                gates.set(p.i, () => (p.answer ? resolve("done") : reject(new JsonRpcError(-32000, "no"))));
                ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
              }),
          );
          await server.start();
          await client.start();
          const controllers = plans.map(() => new AbortController());
          const calls = plans.map((plan, i) =>
            client.request("wait", { i, answer: plan.answer }, { signal: controllers[i]!.signal }).then(
              () => "ok",
              (e: unknown) => (e instanceof JsonRpcError ? "error" : "aborted"),
            ),
          );
          await flush();
          for (let step = 0; step <= 4; step++) {
            plans.forEach((plan, i) => {
              if (plan.abortAt === step) controllers[i]!.abort(new Error("abort"));
              if (plan.releaseAt === step) gates.get(i)?.();
            });
            await flush();
          }
          const outcomes = await Promise.all(calls);
          expect(client.pendingCount).toBe(0);
          outcomes.forEach((o, i) => {
            const plan = plans[i]!;
            const answered = plan.answer ? "ok" : "error";
            if (plan.abortAt < plan.releaseAt) expect(o).toBe("aborted");
            else if (plan.releaseAt < plan.abortAt) expect(o).toBe(answered);
            else expect(["aborted", answered]).toContain(o);
          });
          await client.close();
          await server.close();
        },
      ),
      { numRuns: 50 },
    );
  });

  it("routes a round trip through an in-memory pair in both directions", async () => {
    const [a, b] = createInMemoryPair();
    const left = await started(a);
    const right = await started(b);
    left.onRequest("who", () => "left");
    right.onRequest("who", () => "right");
    await expect(left.request("who")).resolves.toBe("right");
    await expect(right.request("who")).resolves.toBe("left");
  });
});
