import { describe, expect, it } from "vitest";
import { createInMemoryPair } from "./in-memory.js";
import type { JsonRpcMessage } from "./messages.js";
import { createPeer } from "./peer.js";

describe("PeerOptions.requestIdPrefix", () => {
  it("gives outbound requests string ids of the prefix and a counter, and routes their answers", async () => {
    const [a, b] = createInMemoryPair();
    const seen: JsonRpcMessage[] = [];
    const client = createPeer(a, { requestIdPrefix: "inst-1~" });
    const server = createPeer(b);
    server.onRequest("echo", (params, ctx) => {
      seen.push({ jsonrpc: "2.0", id: ctx.id, method: "echo" });
      return params;
    });
    await Promise.all([client.start(), server.start()]);
    expect(await client.request("echo", { n: 1 })).toEqual({ n: 1 });
    expect(await client.request("echo", { n: 2 }, { onProgress: () => {} })).toMatchObject({
      n: 2,
      _meta: { progressToken: "inst-1~2" },
    });
    expect(seen.map((m) => (m as { id: unknown }).id)).toEqual(["inst-1~1", "inst-1~2"]);
    await client.close();
    await server.close();
  });

  it("keeps numeric ids by default", async () => {
    const [a, b] = createInMemoryPair();
    const client = createPeer(a);
    const server = createPeer(b);
    const ids: unknown[] = [];
    server.onRequest("x", (_p, ctx) => {
      ids.push(ctx.id);
      return {};
    });
    await Promise.all([client.start(), server.start()]);
    await client.request("x");
    expect(ids).toEqual([1]);
    await client.close();
    await server.close();
  });
});
