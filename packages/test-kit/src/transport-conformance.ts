import {
  ConnectionClosedError,
  createPeer,
  JsonRpcError,
  type Peer,
  type ProgressParams,
  type Transport,
} from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";

/** Two connected transports: `client` sends requests; `server` answers them. */
export interface TransportPair {
  client: Transport;
  server: Transport;
  /** Frees whatever else the pair holds (a child process, a listening socket). */
  dispose?: () => Promise<void>;
}

/** What a transport can do; the suite skips the invariants a transport cannot offer by design. */
export interface TransportConformanceOptions {
  /** The server side may send requests to the client (false for modern Streamable HTTP). Default true. */
  serverRequests?: boolean;
  /** The server may send notifications that belong to no request. Default true. */
  unsolicitedNotifications?: boolean;
}

/**
 * The invariants every transport keeps, as a vitest suite: run it once per transport with a
 * factory of connected pairs. Each test gets a fresh pair and disposes of it.
 */
export function transportConformance(
  name: string,
  makePair: () => Promise<TransportPair>,
  options: TransportConformanceOptions = {},
): void {
  const serverRequests = options.serverRequests ?? true;
  const unsolicited = options.unsolicitedNotifications ?? true;

  describe(`transport conformance: ${name}`, () => {
    let cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const fn of cleanups.reverse()) await fn().catch(() => {});
      cleanups = [];
    });

    async function connect(): Promise<{ client: Peer; server: Peer; pair: TransportPair }> {
      const pair = await makePair();
      const server = createPeer(pair.server, { timeout: 10_000 });
      const client = createPeer(pair.client, { timeout: 10_000 });
      server.onRequest("echo", (params) => params);
      server.onRequest("fail", () => {
        throw new JsonRpcError(-32001, "failed on purpose", { detail: [1, 2] });
      });
      server.onRequest("crash", () => {
        throw new Error("secret /etc/passwd detail");
      });
      cleanups.push(async () => {
        await client.close();
        await server.close();
        await pair.dispose?.();
      });
      await server.start();
      await client.start();
      return { client, server, pair };
    }

    it("round-trips a request and its result", async () => {
      const { client } = await connect();
      await expect(client.request("echo", { hello: "world", n: 1 })).resolves.toEqual({
        hello: "world",
        n: 1,
      });
    });

    it("keeps text intact: multibyte characters, escaped newlines, a 1 MiB string", async () => {
      const { client } = await connect();
      const text = 'héllo 🌍 ☃ line\nbreak \u2028 "quoted" \\ ';
      const big = "x".repeat(1024 * 1024) + text;
      await expect(client.request("echo", { text, big })).resolves.toEqual({ text, big });
    });

    it("resolves 100 concurrent requests each with its own answer", async () => {
      const { client, server } = await connect();
      server.onRequest("delayed", async (params: { n: number }) => {
        await new Promise((r) => setTimeout(r, (params.n * 7) % 13));
        return { n: params.n };
      });
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, n) => client.request("delayed", { n })),
      );
      expect(results).toEqual(Array.from({ length: 100 }, (_, n) => ({ n })));
    });

    it("carries an error response's code, message and data", async () => {
      const { client } = await connect();
      const error = await client.request("fail", {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error).toMatchObject({ code: -32001, message: "failed on purpose", data: { detail: [1, 2] } });
    });

    it("answers an unexpected handler throw with -32603 and no detail", async () => {
      const { client } = await connect();
      const error = (await client.request("crash", {}).catch((e: unknown) => e)) as JsonRpcError;
      expect(error.code).toBe(-32603);
      expect(JSON.stringify(error)).not.toContain("passwd");
    });

    it("answers an unknown method with -32601", async () => {
      const { client } = await connect();
      await expect(client.request("no/such/method", {})).rejects.toMatchObject({ code: -32601 });
    });

    it("delivers request-scoped notifications before the response, in order", async () => {
      const { client, server } = await connect();
      server.onRequest("count", async (_params, ctx) => {
        for (let i = 1; i <= 5; i++) {
          await ctx.notify("notifications/progress", {
            progressToken: (_params as { _meta: { progressToken: number } })._meta.progressToken,
            progress: i,
            total: 5,
          });
        }
        return { done: true };
      });
      const seen: number[] = [];
      const result = await client.request(
        "count",
        {},
        { onProgress: (p: ProgressParams) => seen.push(p.progress) },
      );
      expect(result).toEqual({ done: true });
      expect(seen).toEqual([1, 2, 3, 4, 5]);
    });

    it("cancels: aborting a request rejects it with the signal's reason and aborts the handler", async () => {
      const { client, server } = await connect();
      let handlerAborted!: () => void;
      const aborted = new Promise<void>((r) => (handlerAborted = r));
      let entered!: () => void;
      const started = new Promise<void>((r) => (entered = r));
      server.onRequest("hang", (_p, ctx) => {
        entered();
        return new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            handlerAborted();
            reject(ctx.signal.reason);
          });
        });
      });
      const controller = new AbortController();
      const call = client.request("hang", {}, { signal: controller.signal });
      await started;
      const reason = new Error("user gave up");
      controller.abort(reason);
      await expect(call).rejects.toBe(reason);
      await aborted;
      // The connection is still healthy afterwards.
      await expect(client.request("echo", { after: 1 })).resolves.toEqual({ after: 1 });
    });

    it("rejects every pending request with ConnectionClosedError when closed, and is idempotent", async () => {
      const { client, server } = await connect();
      server.onRequest("hang", () => new Promise(() => {}));
      const calls = [client.request("hang", {}), client.request("hang", {})];
      // Observe the outcomes now: a close that waits on real I/O must not leave rejections unhandled.
      const outcomes = calls.map((call) =>
        call.then(
          () => "resolved",
          (e: unknown) => e,
        ),
      );
      await new Promise((r) => setTimeout(r, 20));
      await client.close();
      await client.close();
      for (const outcome of await Promise.all(outcomes))
        expect(outcome).toBeInstanceOf(ConnectionClosedError);
      await expect(client.request("echo", {})).rejects.toBeInstanceOf(ConnectionClosedError);
    });

    it("refuses a second start()", async () => {
      const { pair } = await connect();
      await expect(pair.client.start({ onMessage() {}, onInvalid() {}, onClose() {} })).rejects.toThrow(
        /start/,
      );
    });

    if (serverRequests) {
      it("carries requests from the server to the client during a request", async () => {
        const { client, server } = await connect();
        client.onRequest("client/echo", (params) => ({ back: params }));
        server.onRequest("ask", async (_p, ctx) => ctx.request("client/echo", { q: 1 }));
        await expect(client.request("ask", {})).resolves.toEqual({ back: { q: 1 } });
      });
    }

    if (unsolicited) {
      it("delivers notifications that belong to no request, in order", async () => {
        const { client, server } = await connect();
        const seen: number[] = [];
        let done!: () => void;
        const all = new Promise<void>((r) => (done = r));
        client.onNotification("tick", (p: { i: number }) => {
          seen.push(p.i);
          if (seen.length === 20) done();
        });
        // Make sure the channel is established (HTTP sessions need a first exchange).
        await client.request("echo", {});
        for (let i = 0; i < 20; i++) await server.notify("tick", { i });
        await all;
        expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
      });
    }
  });
}
