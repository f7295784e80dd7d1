import { JsonRpcError, TimeoutError, type Transport, TransportError } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient, InvalidResultError } from "../src/index.js";
import { CAPS, discoverHandler, INFO, legacyHandlers, PV, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

function client(options: Parameters<typeof createClient>[0] = { name: "t", version: "1" }): Client {
  const c = createClient(options);
  open.push(c);
  return c;
}

async function server(...args: Parameters<typeof responder>): Promise<Responder> {
  const r = await responder(...args);
  open.push(r);
  return r;
}

describe("auto negotiation over a stream transport (stdio-like)", () => {
  it("takes the modern era from a discover result and sends the modern _meta on every request", async () => {
    const r = await server({
      "server/discover": discoverHandler({ instructions: "hello" }),
      "tools/list": () => ({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }),
    });
    const c = client({ name: "probe", version: "2.0" });
    await c.connect(r.transport);
    expect(c.era).toBe("modern");
    expect(c.protocolVersion).toBe("2026-07-28");
    expect(c.serverInfo).toEqual({ name: "fixture", version: "1.0.0" });
    expect(c.instructions).toBe("hello");
    expect(c.capabilities?.tools).toEqual({ listChanged: true });
    await c.listTools();
    for (const request of [...r.requests("server/discover"), ...r.requests("tools/list")]) {
      expect(request.params._meta[PV]).toBe("2026-07-28");
      expect(request.params._meta[CAPS]).toEqual({});
      expect(request.params._meta[INFO]).toEqual({ name: "probe", version: "2.0" });
    }
    expect(r.requests("initialize")).toHaveLength(0);
  });

  it("falls back to initialize on -32601, sends notifications/initialized, and answers in the legacy era", async () => {
    const r = await server({
      ...legacyHandlers(),
      "tools/list": () => ({ tools: [{ name: "a", inputSchema: {} }] }),
    });
    const c = client();
    await c.connect(r.transport);
    expect(c.era).toBe("legacy");
    expect(c.protocolVersion).toBe("2025-11-25");
    expect(c.serverInfo).toEqual({ name: "legacy-fixture", version: "0.9.0" });
    expect(c.instructions).toBe("be nice");
    await r.waitFor((m) => m.method === "notifications/initialized");
    const tools = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(["a"]);
    // Legacy requests carry no modern _meta.
    expect(r.requests("tools/list")[0]!.params?._meta).toBeUndefined();
    const init = r.requests("initialize")[0]!;
    expect(init.params).toMatchObject({
      protocolVersion: "2025-11-25",
      clientInfo: { name: "t", version: "1" },
    });
  });

  it("falls back on any other error code too: the fallback is never keyed to one code", async () => {
    const r = await server({
      ...legacyHandlers(),
      "server/discover": () => {
        throw new JsonRpcError(-32000, "Server not initialized");
      },
    });
    const c = client();
    await c.connect(r.transport);
    expect(c.era).toBe("legacy");
  });

  it("falls back to legacy when the probe times out, bounded by probeTimeout", async () => {
    const r = await server({ ...legacyHandlers(), "server/discover": () => new Promise(() => {}) });
    const c = client({ name: "t", version: "1", probeTimeout: 50 });
    await c.connect(r.transport);
    expect(c.era).toBe("legacy");
    // The abandoned probe was cancelled.
    const probe = r.requests("server/discover")[0]!;
    await r.waitFor((m) => m.method === "notifications/cancelled" && m.params.requestId === probe.id);
  });

  it("falls back when discover answers with something that is not a DiscoverResult", async () => {
    const r = await server({ ...legacyHandlers(), "server/discover": () => ({}) });
    const c = client();
    await c.connect(r.transport);
    expect(c.era).toBe("legacy");
  });

  it("stays modern on -32022 and retries with a version from `supported`", async () => {
    let first = true;
    const r = await server({
      ...legacyHandlers(),
      "server/discover": (params) => {
        if (first) {
          first = false;
          throw new JsonRpcError(-32022, "Unsupported protocol version", {
            supported: ["2026-07-28"],
            requested: params._meta[PV],
          });
        }
        return discoverHandler()(params, undefined as never);
      },
    });
    const c = client();
    await c.connect(r.transport);
    expect(c.era).toBe("modern");
    expect(r.requests("server/discover")).toHaveLength(2);
    expect(r.requests("initialize")).toHaveLength(0);
  });

  it("does not fall back on another recognized modern error: it throws McpError", async () => {
    const r = await server({
      ...legacyHandlers(),
      "server/discover": () => {
        throw new JsonRpcError(-32020, "Header mismatch");
      },
    });
    const c = client();
    const error = await c.connect(r.transport).catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32020);
    expect(r.requests("initialize")).toHaveLength(0);
  });

  it("switches to modern when initialize's error names a modern version (a modern-only server)", async () => {
    let discovers = 0;
    const r = await server({
      "server/discover": (params) => {
        discovers++;
        // The first probe is lost (a slow start); the second one is answered.
        if (discovers === 1) return new Promise(() => {});
        return discoverHandler()(params, undefined as never);
      },
      initialize: () => {
        throw new JsonRpcError(-32602, "Unsupported protocol version", {
          supported: ["2026-07-28"],
          requested: "2025-11-25",
        });
      },
    });
    const c = client({ name: "t", version: "1", probeTimeout: 50 });
    await c.connect(r.transport);
    expect(c.era).toBe("modern");
  });

  it("rejects an initialize result whose version the client does not speak", async () => {
    const r = await server({
      ...legacyHandlers(),
      initialize: () => ({
        protocolVersion: "1999-01-01",
        capabilities: {},
        serverInfo: { name: "x", version: "1" },
      }),
    });
    const c = client();
    const error = await c.connect(r.transport).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResultError);
    expect(String(error.message)).toContain("1999-01-01");
  });

  it("versionNegotiation: legacy skips the probe; modern never falls back", async () => {
    const r1 = await server(legacyHandlers());
    const legacy = client({
      name: "t",
      version: "1",
      versionNegotiation: "legacy",
      protocolVersion: "2025-06-18",
    });
    await legacy.connect(r1.transport);
    expect(r1.requests("server/discover")).toHaveLength(0);
    expect(legacy.protocolVersion).toBe("2025-06-18");

    const r2 = await server(legacyHandlers());
    const modern = client({ name: "t", version: "1", versionNegotiation: "modern" });
    const error = await modern.connect(r2.transport).catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32601);
    expect(r2.requests("initialize")).toHaveLength(0);
  });

  it("bounds the whole handshake by connectTimeout", async () => {
    const r = await server({
      "server/discover": () => new Promise(() => {}),
      initialize: () => new Promise(() => {}),
    });
    const c = client({ name: "t", version: "1", connectTimeout: 100, probeTimeout: 40 });
    const started = Date.now();
    const error = await c.connect(r.transport).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("declares the capabilities its handlers imply, per era", async () => {
    const r = await server({ "server/discover": discoverHandler() });
    const c = client({
      name: "t",
      version: "1",
      handlers: { elicitation: () => ({ action: "cancel" }), sampling: () => ({}) as never, roots: () => [] },
      tasks: true,
    });
    await c.connect(r.transport);
    expect(r.requests("server/discover")[0]!.params._meta[CAPS]).toEqual({
      elicitation: { form: {} },
      sampling: {},
      roots: {},
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });

    const r2 = await server(legacyHandlers());
    const c2 = client({
      name: "t",
      version: "1",
      versionNegotiation: "legacy",
      handlers: { elicitation: () => ({ action: "cancel" }) },
      tasks: true,
    });
    await c2.connect(r2.transport);
    expect(r2.requests("initialize")[0]!.params.capabilities).toEqual({ elicitation: { form: {} } });
  });
});

describe("auto negotiation over an HTTP-like transport", () => {
  it("tries modern first and falls back to initialize on the same transport", async () => {
    const r = await server(legacyHandlers(), { perRequestStream: true });
    const c = client();
    await c.connect(r.transport);
    expect(c.era).toBe("legacy");
    expect(r.requests("server/discover")).toHaveLength(1);
  });

  it("falls back to the HTTP+SSE transport when initialize gets HTTP 404 (TransportChoices.sse)", async () => {
    const notFound = Object.assign(new TransportError("HTTP 404"), { status: 404 });
    // The Streamable HTTP endpoint does not exist: every POST fails with an HTTP error.
    const dead: Transport = {
      traits: { perRequestStream: true },
      async start() {},
      async send() {
        throw notFound;
      },
      async close() {},
    };
    const sse = await server(legacyHandlers());
    const c = client({ name: "t", version: "1", versionNegotiation: "auto" });
    await c.connect({ modern: () => dead, sse: () => sse.transport });
    expect(c.era).toBe("legacy");
    expect(c.transport).toBe(sse.transport);
    expect(sse.requests("initialize")).toHaveLength(1);
    expect(sse.requests("server/discover")).toHaveLength(0);
  });

  it("uses a separate legacy transport when TransportChoices gives one", async () => {
    const modern = await server(legacyHandlers(), { perRequestStream: true });
    const legacy = await server(legacyHandlers());
    const c = client();
    await c.connect({ modern: () => modern.transport, legacy: () => legacy.transport });
    expect(c.transport).toBe(legacy.transport);
    expect(modern.requests("initialize")).toHaveLength(0);
    expect(legacy.requests("initialize")).toHaveLength(1);
  });

  it("passes each request's era headers down with the send on a transport that carries headers", async () => {
    const r = await server({ ...legacyHandlers(), ping: () => ({}) }, { perRequestStream: true });
    const sends: [string, unknown][] = [];
    const inner = r.transport;
    const aware: Transport = {
      traits: { perRequestStream: inner.traits.perRequestStream, perRequestHeaders: true },
      start: (sink) => inner.start(sink),
      send: (m, o) => {
        if ("method" in m) sends.push([m.method, o?.headers]);
        return inner.send(m, o);
      },
      close: (reason) => inner.close(reason),
    };
    const c = client();
    await c.connect(aware);
    await c.ping();
    expect(sends).toEqual([
      ["server/discover", { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" }],
      ["initialize", undefined],
      ["notifications/initialized", undefined],
      ["ping", { "mcp-protocol-version": "2025-11-25" }],
    ]);
  });
});

describe("the era cache", () => {
  it("remembers the era per server key and skips the probe next time", async () => {
    const cache = new Map();
    const r1 = await server(legacyHandlers());
    const c1 = client({ name: "t", version: "1", eraCache: cache });
    await c1.connect(r1.transport, { serverKey: "srv" });
    expect(cache.get("srv")).toEqual({ era: "legacy", protocolVersion: "2025-11-25" });
    const r2 = await server(legacyHandlers());
    const c2 = client({ name: "t", version: "1", eraCache: cache });
    await c2.connect(r2.transport, { serverKey: "srv" });
    expect(c2.era).toBe("legacy");
    expect(r2.requests("server/discover")).toHaveLength(0);
  });

  it("yields to an explicit protocolVersion: the version asked for is the one offered", async () => {
    const cache = new Map([["srv", { era: "legacy" as const, protocolVersion: "2025-11-25" }]]);
    const r = await server(legacyHandlers());
    const c = client({ name: "t", version: "1", eraCache: cache, protocolVersion: "2025-06-18" });
    await c.connect(r.transport, { serverKey: "srv" });
    expect(r.requests("initialize")[0]!.params.protocolVersion).toBe("2025-06-18");
    expect(c.protocolVersion).toBe("2025-06-18");
  });

  it("yields to an explicit versionNegotiation: a remembered legacy era does not stop a modern client", async () => {
    const cache = new Map([
      ["srv", { era: "legacy" as const, protocolVersion: "2025-11-25", via: "sse" as const }],
    ]);
    const r = await server({ "server/discover": discoverHandler() });
    const sse = await server(legacyHandlers());
    const c = client({ name: "t", version: "1", eraCache: cache, versionNegotiation: "modern" });
    await c.connect({ modern: () => r.transport, sse: () => sse.transport }, { serverKey: "srv" });
    expect(c.era).toBe("modern");
    expect(sse.received).toHaveLength(0);
  });

  it("with versionNegotiation legacy, takes a remembered legacy version but never a modern one", async () => {
    const cache = new Map([["srv", { era: "legacy" as const, protocolVersion: "2025-06-18" }]]);
    const r = await server(legacyHandlers());
    const c = client({ name: "t", version: "1", eraCache: cache, versionNegotiation: "legacy" });
    await c.connect(r.transport, { serverKey: "srv" });
    expect(r.requests("initialize")[0]!.params.protocolVersion).toBe("2025-06-18");
  });
});

describe("createClient option checks", () => {
  it("rejects bad timeouts and unknown versions at once", () => {
    expect(() => createClient({ name: "t", version: "1", requestTimeout: 0 })).toThrow(RangeError);
    expect(() => createClient({ name: "t", version: "1", requestTimeout: Number.NaN })).toThrow(RangeError);
    expect(() => createClient({ name: "t", version: "1", connectTimeout: -5 })).toThrow(RangeError);
    expect(() => createClient({ name: "t", version: "1", protocolVersion: "2023-01-01" })).toThrow(
      RangeError,
    );
    expect(() =>
      createClient({ name: "t", version: "1", requestTimeout: Number.POSITIVE_INFINITY }),
    ).not.toThrow();
  });

  it("refuses a second connect and calls before connect", async () => {
    const r = await server({ "server/discover": discoverHandler() });
    const c = client();
    await expect(c.listTools()).rejects.toThrow(/not connected/);
    await c.connect(r.transport);
    await expect(c.connect(r.transport)).rejects.toThrow(/twice/);
  });
});
