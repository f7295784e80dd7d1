// maxConcurrentRequestsPerConnection over stdio framing (Node streams, as a real stdio server has): a
// transport with no HTTP status, so the request over the limit gets a JSON-RPC error, the logger a line
// naming the limit, and the connection lives on. Both eras: a legacy session and modern requests.
import { PassThrough } from "node:stream";
import { createPeer, JsonRpcError, type Peer } from "@mcpkit/jsonrpc";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { meta } from "./helpers.js";

const peers: Peer[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server whose `hold` tool runs until `release()`; `running(n)` resolves once `n` calls of it run. */
function holding(max: number | undefined) {
  const logged: string[] = [];
  const s = createServer({
    name: "limit-test",
    version: "1.0.0",
    ...(max === undefined ? {} : { maxConcurrentRequestsPerConnection: max }),
    logger: { error: (message) => logged.push(message) },
  });
  servers.push(s);
  const open: Array<() => void> = [];
  let waiter: { n: number; resolve: () => void } | undefined;
  s.registerTool("hold", {}, async () => {
    const done = new Promise<void>((resolve) => open.push(resolve));
    if (waiter && open.length >= waiter.n) waiter.resolve();
    await done;
    return "done";
  });
  s.registerTool("quick", {}, () => "quick");
  return {
    server: s,
    logged,
    release: () => {
      for (const r of open.splice(0)) r();
    },
    running: (n: number) =>
      new Promise<void>((resolve) => {
        if (open.length >= n) resolve();
        else waiter = { n, resolve };
      }),
  };
}

async function overStdio(s: Server): Promise<Peer> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  await s.connect(createStreamTransport({ readable: toServer, writable: toClient }));
  const peer = createPeer(createStreamTransport({ readable: toClient, writable: toServer }));
  peers.push(peer);
  await peer.start();
  return peer;
}

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e as JsonRpcError,
  );

describe("maxConcurrentRequestsPerConnection", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`[${era}] the request over the limit gets -32600 naming the limit; the others finish; it is logged once`, async () => {
      const fixture = holding(3);
      const peer = await overStdio(fixture.server);
      const params = (name: string) => (era === "modern" ? { name, _meta: meta() } : { name, arguments: {} });
      if (era === "legacy") {
        await peer.request("initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        });
        await peer.notify("notifications/initialized");
      }
      const held = [1, 2, 3].map(() => peer.request("tools/call", params("hold")));
      await fixture.running(3);
      const refused = await errorOf(peer.request("tools/call", params("quick")));
      expect(refused).toBeInstanceOf(JsonRpcError);
      expect(refused.code).toBe(-32600);
      expect(refused.message).toMatch(/Too many requests: more than 3 in flight on this connection/);
      expect(refused.data).toEqual({ limit: "maxConcurrentRequestsPerConnection", value: 3 });
      // A second refusal in the same burst is not logged again.
      await errorOf(peer.request("tools/call", params("quick")));
      expect(fixture.logged.filter((l) => l.includes("maxConcurrentRequestsPerConnection=3"))).toHaveLength(
        1,
      );
      fixture.release();
      const results = (await Promise.all(held)) as Array<{ content: Array<{ text: string }> }>;
      expect(results.map((r) => r.content[0]!.text)).toEqual(["done", "done", "done"]);
      // The connection lives on, with its slots back.
      const after = (await peer.request("tools/call", params("quick"))) as {
        content: Array<{ text: string }>;
      };
      expect(after.content[0]!.text).toBe("quick");
    });
  }

  it("slots are released by failures and synchronous answers too; the default is 100", async () => {
    const fixture = holding(undefined);
    fixture.server.registerTool("boom", {}, () => {
      throw new Error("boom");
    });
    const peer = await overStdio(fixture.server);
    // 200 sequential calls of each kind through a limit of 100: any slot not given back would refuse one.
    for (let i = 0; i < 100; i++) {
      await peer.request("tools/list", { _meta: meta() });
      await peer.request("tools/call", { name: "boom", _meta: meta() });
      await peer.request("tools/call", { name: "nope", _meta: meta() }).catch(() => undefined);
    }
    const held = Array.from({ length: 100 }, () =>
      peer.request("tools/call", { name: "hold", _meta: meta() }),
    );
    await fixture.running(100);
    const refused = await errorOf(peer.request("tools/list", { _meta: meta() }));
    expect(refused.data).toEqual({ limit: "maxConcurrentRequestsPerConnection", value: 100 });
    fixture.release();
    await Promise.all(held);
  });

  it("refuses a setting that is not a whole number of at least 1", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        createServer({ name: "s", version: "1", maxConcurrentRequestsPerConnection: bad }),
      ).toThrow(RangeError);
    }
  });
});
