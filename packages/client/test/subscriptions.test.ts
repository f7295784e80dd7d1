import { ConnectionClosedError, type RequestContext } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Client,
  type ClientOptions,
  createClient,
  type SubscriptionNotification,
} from "../src/index.js";
import {
  deferred,
  discoverHandler,
  type Handler,
  legacyHandlers,
  type Responder,
  responder,
} from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(
  handlers: Record<string, Handler>,
  options: Partial<ClientOptions> = {},
  perRequestStream = false,
): Promise<{ c: Client; r: Responder }> {
  const r = await responder(handlers, { perRequestStream });
  open.push(r);
  const c = createClient({ name: "t", version: "1", ...options });
  open.push(c);
  await c.connect(r.transport);
  return { c, r };
}

const SUB = "io.modelcontextprotocol/subscriptionId";

/** A listen handler that acknowledges, records its context, and waits until cancelled or ended. */
function listenServer() {
  const streams: Array<{ ctx: RequestContext; filter: any; end: () => void }> = [];
  const opened: Array<() => void> = [];
  const handler: Handler = async (params, ctx) => {
    const done = deferred();
    streams.push({ ctx, filter: params.notifications, end: () => done.resolve() });
    await ctx.notify("notifications/subscriptions/acknowledged", {
      notifications: params.notifications,
      _meta: { [SUB]: ctx.id },
    });
    for (const f of opened.splice(0)) f();
    await Promise.race([
      done.promise,
      new Promise((resolve) => ctx.signal.addEventListener("abort", resolve)),
    ]);
    return { resultType: "complete", _meta: { [SUB]: ctx.id } };
  };
  return {
    handler,
    streams,
    /** Resolves once `n` streams were opened and acknowledged. */
    opened: (n: number) =>
      streams.length >= n
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const check = () => (streams.length >= n ? resolve() : opened.push(check));
            opened.push(check);
          }),
  };
}

async function take(iterator: AsyncIterator<SubscriptionNotification>, n: number) {
  const out: SubscriptionNotification[] = [];
  for (let i = 0; i < n; i++) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

describe("subscribe, modern (subscriptions/listen)", () => {
  it("opens one listen per subscription and routes tagged notifications by subscription id", async () => {
    const server = listenServer();
    const { c, r } = await connect({
      "server/discover": discoverHandler(),
      "subscriptions/listen": server.handler,
    });
    const tools = c.subscribe({ toolsListChanged: true });
    const res = c.subscribe({ resourceSubscriptions: ["a://1"] });
    await expect(tools.acknowledged).resolves.toEqual({ toolsListChanged: true });
    await expect(res.acknowledged).resolves.toEqual({ resourceSubscriptions: ["a://1"] });
    const [s1, s2] = server.streams;
    const toolsStream = s1!.filter.toolsListChanged ? s1! : s2!;
    const resStream = toolsStream === s1 ? s2! : s1!;
    await toolsStream.ctx.notify("notifications/tools/list_changed", {
      _meta: { [SUB]: toolsStream.ctx.id },
    });
    await resStream.ctx.notify("notifications/resources/updated", {
      uri: "a://1",
      _meta: { [SUB]: resStream.ctx.id },
    });
    expect((await take(tools, 1))[0]!.method).toBe("notifications/tools/list_changed");
    expect((await take(res, 1))[0]).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "a://1" },
    });
    expect(c.toolsStale).toBe(true);
    // Every listen carried the modern _meta and the filter.
    for (const listen of r.requests("subscriptions/listen")) {
      expect(listen.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
    }
    await tools.close();
    expect(tools.closed).toBe(true);
    expect((await tools.next()).done).toBe(true);
    // Closing cancelled exactly that listen at the server (stdio: notifications/cancelled).
    await r.waitFor(
      (m) => m.method === "notifications/cancelled" && m.params.requestId === toolsStream.ctx.id,
    );
    expect(res.closed).toBe(false);
  });

  it("ends the iteration when the server closes the subscription gracefully", async () => {
    const server = listenServer();
    const { c } = await connect({
      "server/discover": discoverHandler(),
      "subscriptions/listen": server.handler,
    });
    const sub = c.subscribe({ promptsListChanged: true });
    await sub.acknowledged;
    server.streams[0]!.end();
    const seen: unknown[] = [];
    for await (const n of sub) seen.push(n);
    expect(seen).toEqual([]);
    expect(sub.closed).toBe(true);
  });

  it("over an HTTP-like transport, closing aborts the listen stream (no cancel notification)", async () => {
    const server = listenServer();
    const { c, r } = await connect(
      { "server/discover": discoverHandler(), "subscriptions/listen": server.handler },
      {},
      true,
    );
    const sub = c.subscribe({ toolsListChanged: true });
    await sub.acknowledged;
    const aborted = new Promise((resolve) =>
      server.streams[0]!.ctx.signal.addEventListener("abort", resolve),
    );
    await sub.close();
    await aborted;
    expect(r.received.some((m: any) => m.method === "notifications/cancelled")).toBe(false);
  });

  it("a subscription does not hold the serialize turn", async () => {
    const server = listenServer();
    const { c } = await connect(
      {
        "server/discover": discoverHandler(),
        "subscriptions/listen": server.handler,
        "tools/call": () => ({ resultType: "complete", content: [] }),
      },
      { serialize: true },
    );
    const sub = c.subscribe({ toolsListChanged: true });
    await sub.acknowledged;
    await expect(c.callTool("x")).resolves.toBeDefined();
    await sub.close();
  });

  it("ends subscriptions with the error when the connection closes", async () => {
    const server = listenServer();
    const { c, r } = await connect({
      "server/discover": discoverHandler(),
      "subscriptions/listen": server.handler,
    });
    const sub = c.subscribe({ toolsListChanged: true });
    await sub.acknowledged;
    await r.close();
    await expect(sub.next()).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(sub.closed).toBe(true);
    void c;
  });
});

describe("subscribe, legacy (notifications + resources/subscribe)", () => {
  it("subscribes each resource once, filters notifications, and unsubscribes on close", async () => {
    const { c, r } = await connect({
      ...legacyHandlers({ resources: { subscribe: true, listChanged: true } }),
      "resources/subscribe": () => ({}),
      "resources/unsubscribe": () => ({}),
    });
    const a = c.subscribe({ resourceSubscriptions: ["file:///a"], resourcesListChanged: true });
    const b = c.subscribe({ resourceSubscriptions: ["file:///a", "file:///b"] });
    await a.acknowledged;
    await b.acknowledged;
    expect(r.requests("resources/subscribe").map((q) => q.params.uri)).toEqual(["file:///a", "file:///b"]);
    await r.peer.notify("notifications/resources/updated", { uri: "file:///b" });
    await r.peer.notify("notifications/resources/list_changed");
    await r.peer.notify("notifications/resources/updated", { uri: "file:///a" });
    expect((await take(a, 2)).map((n) => n.method)).toEqual([
      "notifications/resources/list_changed",
      "notifications/resources/updated",
    ]);
    expect((await take(b, 2)).map((n) => n.params.uri)).toEqual(["file:///b", "file:///a"]);
    expect(c.resourcesStale).toBe(true);
    await b.close();
    // a still holds file:///a: only file:///b is unsubscribed.
    expect(r.requests("resources/unsubscribe").map((q) => q.params.uri)).toEqual(["file:///b"]);
    await a.close();
    expect(r.requests("resources/unsubscribe").map((q) => q.params.uri)).toEqual(["file:///b", "file:///a"]);
  });

  it("fails the subscription when the server refuses resources/subscribe", async () => {
    const { c } = await connect(legacyHandlers());
    const sub = c.subscribe({ resourceSubscriptions: ["x://y"] });
    await expect(sub.acknowledged).rejects.toMatchObject({ code: -32601 });
    await expect(sub.next()).rejects.toMatchObject({ code: -32601 });
  });
});
