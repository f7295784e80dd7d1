// The handler's `ctx.signal` on a transport with a per-request signal (`info.signal`, as HTTP has): it
// aborts with the transport's signal while the request runs, and a request that settled is collectable
// even when its handler left an abort listener on that signal (the soak's heap slope: a composite
// AbortSignal.any signal with a listener is kept by Node until it aborts, i.e. for ever).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "./messages.js";
import { createPeer } from "./peer.js";
import type { MessageInfo, Transport, TransportSink } from "./transport.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A transport whose test injects requests with their own `info`, and sees the answers. */
function perRequest() {
  let sink!: TransportSink;
  const answered = new Map<unknown, (m: JsonRpcMessage) => void>();
  const transport: Transport = {
    traits: { perRequestStream: true },
    async start(s) {
      sink = s;
    },
    async send(message) {
      if ("id" in message) answered.get(message.id)?.(message);
    },
    async close() {},
  };
  const request = (id: number, method: string, info: MessageInfo) =>
    new Promise<JsonRpcMessage>((resolve) => {
      answered.set(id, resolve);
      sink.onMessage({ jsonrpc: "2.0", id, method }, info);
    });
  return { transport, request };
}

/** Lets the event loop turn: a WeakRef target may only be collected after the current job. */
const turn = () => new Promise<void>((r) => setImmediate(r));

describe("inbound request signal", () => {
  it("aborts with the transport's per-request signal while the request runs", async () => {
    const { transport, request } = perRequest();
    const peer = createPeer(transport);
    let seen: unknown;
    peer.onRequest(
      "wait",
      (_p, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            seen = ctx.signal.reason;
            reject(ctx.signal.reason);
          });
          expect(ctx.signal.aborted).toBe(false);
          outer.abort(new Error("stream closed"));
        }),
    );
    await peer.start();
    const outer = new AbortController();
    void request(1, "wait", { signal: outer.signal });
    await turn();
    expect((seen as Error).message).toBe("stream closed");
    // An already aborted stream gives an already aborted signal.
    let early: boolean | undefined;
    peer.onRequest("check", (_p, ctx) => {
      early = ctx.signal.aborted;
      return {};
    });
    void request(2, "check", { signal: AbortSignal.abort(new Error("gone")) });
    await turn();
    expect(early).toBe(true);
    await peer.close();
  });

  it("a settled request is collectable although its handler left an abort listener on ctx.signal", async () => {
    const { transport, request } = perRequest();
    const peer = createPeer(transport);
    const refs: Array<WeakRef<AbortSignal>> = [];
    peer.onRequest("echo", (_p, ctx) => {
      const timer = setTimeout(() => {}, 0);
      // The common pattern: a once listener that is never removed when the work ends normally.
      ctx.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
      refs.push(new WeakRef(ctx.signal));
      return { ok: true };
    });
    await peer.start();
    // The transport's signals outlive the requests here, as a keep-alive connection's may.
    const outers = Array.from({ length: 20 }, () => new AbortController());
    for (let i = 0; i < outers.length; i++) await request(i, "echo", { signal: outers[i]!.signal });
    await turn();
    gc();
    await turn();
    gc();
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    // Once settled, the request no longer listens to its transport's signal either.
    for (const outer of outers) outer.abort(new Error("late"));
    await peer.close();
  });
});
