// The client's response cache against a scripted server that counts what it is asked: lists and reads
// are served from the cache for the server's ttlMs, dropped by list_changed and resources/updated, never
// kept from a retried (MRTR) read, shared between clients only where cacheScope allows, and off with
// `cache: false`.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type Client,
  type ClientOptions,
  createClient,
  createMemoryResponseCache,
  type ResponseCacheStore,
} from "../src/index.js";
import { deferred, type Handler, legacyHandlers, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const c of open.splice(0)) await c.close();
});

function modern(handlers: Record<string, Handler>): Record<string, Handler> {
  return {
    "server/discover": () => ({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
      ttlMs: 0,
      cacheScope: "public",
    }),
    ...handlers,
  };
}

/** Resolvers waiting for a notification to reach a client, by method. */
const waiting = new Map<string, () => void>();

async function connect(
  handlers: Record<string, Handler>,
  options: Partial<ClientOptions> = {},
  serverKey?: string,
): Promise<{ c: Client; r: Responder }> {
  const r = await responder(handlers);
  open.push(r);
  const c = createClient({
    name: "t",
    version: "1",
    // After the client handled it (the caches saw it first).
    onNotification: (n) => waiting.get(n.method)?.(),
    ...options,
  });
  open.push(c);
  await c.connect(r.transport, serverKey === undefined ? {} : { serverKey });
  return { c, r };
}

const tools = (ttlMs: number, scope = "public") => ({
  "tools/list": () => ({
    resultType: "complete",
    tools: [{ name: "echo", inputSchema: { type: "object" } }],
    ttlMs,
    cacheScope: scope,
  }),
});

const readme = (ttlMs: number, scope = "public") => {
  let n = 0;
  return {
    "resources/read": (p: any) => ({
      resultType: "complete",
      contents: [{ uri: p.uri, text: `version ${++n}` }],
      ttlMs,
      cacheScope: scope,
    }),
  };
};

/** Sends a notification and resolves once the client has taken it. */
async function notify(r: Responder, method: string, params: Record<string, unknown> = {}) {
  const seen = deferred();
  waiting.set(method, seen.resolve);
  await r.peer.notify(method, params);
  await seen.promise;
  waiting.delete(method);
}

describe("listTools from the response cache", () => {
  it("asks the server once while the list is fresh, again after ttlMs", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { c, r } = await connect(modern(tools(60_000)));
    expect((await c.listTools()).map((t) => t.name)).toEqual(["echo"]);
    await c.listTools();
    await c.listTools();
    expect(r.requests("tools/list")).toHaveLength(1);
    vi.setSystemTime(Date.now() + 60_001);
    await c.listTools();
    expect(r.requests("tools/list")).toHaveLength(2);
  });

  it("asks every time for ttlMs 0, and with refresh", async () => {
    const { c, r } = await connect(modern(tools(0)));
    await c.listTools();
    await c.listTools();
    expect(r.requests("tools/list")).toHaveLength(2);
    const cached = await connect(modern(tools(60_000)));
    await cached.c.listTools();
    await cached.c.listTools({ refresh: true });
    expect(cached.r.requests("tools/list")).toHaveLength(2);
  });

  it("drops the list on notifications/tools/list_changed", async () => {
    const { c, r } = await connect(modern(tools(60_000)));
    await c.listTools();
    await notify(r, "notifications/tools/list_changed");
    expect(c.toolsStale).toBe(true);
    await c.listTools();
    await c.listTools();
    expect(r.requests("tools/list")).toHaveLength(2);
  });

  it("is off with cache: false", async () => {
    const { c, r } = await connect(modern(tools(60_000)), { cache: false });
    await c.listTools();
    await c.listTools();
    expect(r.requests("tools/list")).toHaveLength(2);
  });

  it("keeps a legacy list until list_changed only when the server promises to send it", async () => {
    const list = { "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }) };
    const promised = await connect(
      { ...legacyHandlers({ tools: { listChanged: true } }), ...list },
      { versionNegotiation: "legacy" },
    );
    await promised.c.listTools();
    await promised.c.listTools();
    expect(promised.r.requests("tools/list")).toHaveLength(1);
    const silent = await connect(
      { ...legacyHandlers({ tools: {} }), ...list },
      { versionNegotiation: "legacy" },
    );
    await silent.c.listTools();
    await silent.c.listTools();
    expect(silent.r.requests("tools/list")).toHaveLength(2);
  });
});

describe("readResource from the response cache", () => {
  it("serves a read for its ttlMs and drops it on resources/updated for that URI only", async () => {
    const { c, r } = await connect(modern(readme(60_000)));
    const first = await c.readResource("file:///readme");
    await c.readResource("file:///other");
    expect((await c.readResource("file:///readme")).contents).toEqual(first.contents);
    expect(r.requests("resources/read")).toHaveLength(2);
    await notify(r, "notifications/resources/updated", { uri: "file:///readme" });
    expect((await c.readResource("file:///readme")).contents[0]).toMatchObject({ text: "version 3" });
    await c.readResource("file:///other");
    expect(r.requests("resources/read")).toHaveLength(3);
    await c.readResource("file:///readme", { refresh: true });
    expect(r.requests("resources/read")).toHaveLength(4);
  });

  it("never keeps a result that took input rounds", async () => {
    const { c, r } = await connect(
      modern({
        "resources/read": (p: any) =>
          p.requestState === undefined
            ? { resultType: "input_required", requestState: "s1" }
            : {
                resultType: "complete",
                contents: [{ uri: p.uri, text: "x" }],
                ttlMs: 60_000,
                cacheScope: "public",
              },
      }),
    );
    await c.readResource("file:///gated");
    await c.readResource("file:///gated");
    expect(r.requests("resources/read")).toHaveLength(4);
  });

  it("does not keep a read that a resources/updated overtook", async () => {
    let r!: Responder;
    let first = true;
    const kit = await connect(
      modern({
        "resources/read": async (p: any) => {
          if (first) {
            first = false;
            // The resource changes while this answer is on its way.
            await notify(r, "notifications/resources/updated", { uri: p.uri });
          }
          return { resultType: "complete", contents: [], ttlMs: 60_000, cacheScope: "public" };
        },
      }),
    );
    r = kit.r;
    const c = kit.c;
    await c.readResource("file:///racy");
    await c.readResource("file:///racy");
    await c.readResource("file:///racy");
    expect(r.requests("resources/read")).toHaveLength(2);
  });
});

describe("a store shared between clients of one server", () => {
  it("shares public results, and private ones only within one authorization context", async () => {
    const store: ResponseCacheStore = createMemoryResponseCache();
    const handlers = modern({ ...tools(60_000, "public"), ...readme(60_000, "private") });
    const a = await connect(handlers, { cache: { store, authContext: "ada" } }, "srv");
    const b = await connect(handlers, { cache: { store, authContext: "bob" } }, "srv");
    const a2 = await connect(handlers, { cache: { store, authContext: "ada" } }, "srv");
    await a.c.listTools();
    expect((await b.c.listTools()).map((t) => t.name)).toEqual(["echo"]);
    expect(b.r.requests("tools/list")).toHaveLength(0);
    await a.c.readResource("file:///mine");
    await b.c.readResource("file:///mine");
    await a2.c.readResource("file:///mine");
    expect(b.r.requests("resources/read")).toHaveLength(1);
    expect(a2.r.requests("resources/read")).toHaveLength(0);
  });

  it("keeps clients without a serverKey apart", async () => {
    const store = createMemoryResponseCache();
    const handlers = modern(tools(60_000));
    const a = await connect(handlers, { cache: { store } });
    const b = await connect(handlers, { cache: { store } });
    await a.c.listTools();
    await b.c.listTools();
    expect(b.r.requests("tools/list")).toHaveLength(1);
  });
});
