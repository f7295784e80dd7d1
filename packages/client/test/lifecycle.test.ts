import {
  ConnectionClosedError,
  JsonRpcError,
  TimeoutError,
  type Transport,
  TransportError,
  type TransportSink,
} from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, type ClientOptions, createClient, withRequestConfig } from "../src/index.js";
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
): Promise<{ c: Client; r: Responder }> {
  const r = await responder(handlers);
  open.push(r);
  const c = createClient({ name: "t", version: "1", ...options });
  open.push(c);
  await c.connect(r.transport);
  return { c, r };
}

const ok = () => ({ resultType: "complete", content: [] });
const never = () => new Promise(() => {});

describe("timeouts", () => {
  it("per call > ambient scope > session > default, and NaN or <= 0 is rejected", async () => {
    const { c } = await connect(
      { "server/discover": discoverHandler(), "tools/call": never },
      { requestTimeout: 5000 },
    );
    const timeoutOf = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: TimeoutError) => e.timeout,
      );
    expect(await timeoutOf(c.callTool("x", {}, { timeout: 20 }))).toBe(20);
    expect(await withRequestConfig({ timeout: 30 }, () => timeoutOf(c.callTool("x")))).toBe(30);
    // The call's own setting still wins inside a scope; scopes nest.
    expect(
      await withRequestConfig({ timeout: 30 }, () => timeoutOf(c.callTool("x", {}, { timeout: 25 }))),
    ).toBe(25);
    expect(
      await withRequestConfig({ timeout: 5000 }, () =>
        withRequestConfig({ maxTotalTimeout: 9000 }, async () => {
          await Promise.resolve();
          return timeoutOf(c.callTool("x", {}, { timeout: 15 }));
        }),
      ),
    ).toBe(15);
    await expect(c.callTool("x", {}, { timeout: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(c.callTool("x", {}, { timeout: Number.NaN })).rejects.toBeInstanceOf(RangeError);
    expect(() => withRequestConfig({ timeout: -1 }, () => 0)).toThrow(RangeError);
  });

  it("follows the ambient scope across awaits (AsyncLocalStorage on Node)", async () => {
    const { c } = await connect({ "server/discover": discoverHandler(), "tools/call": never });
    const error = await withRequestConfig({ timeout: 40 }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return c.callTool("x").catch((e) => e);
    });
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeout).toBe(40);
  });

  it("cancels a timed-out call and keeps the session healthy", async () => {
    const { c, r } = await connect({
      "server/discover": discoverHandler(),
      "tools/call": (params) => (params.name === "slow" ? never() : ok()),
    });
    await expect(c.callTool("slow", {}, { timeout: 30 })).rejects.toBeInstanceOf(TimeoutError);
    const slow = r.requests("tools/call")[0]!;
    await r.waitFor((m) => m.method === "notifications/cancelled" && m.params.requestId === slow.id);
    await expect(c.callTool("fast")).resolves.toMatchObject({ isError: false });
  });

  it("resets the timeout on progress, bounded by maxTotalTimeout", async () => {
    const { c } = await connect({
      "server/discover": discoverHandler(),
      "tools/call": async (params, ctx) => {
        const token = params._meta.progressToken;
        for (let i = 1; i <= 6; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          await ctx.notify("notifications/progress", { progressToken: token, progress: i, total: 6 });
        }
        if (params.name === "forever") return never();
        return ok();
      },
    });
    const seen: number[] = [];
    await c.callTool("steady", {}, { timeout: 80, onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    const error = await c
      .callTool("forever", {}, { timeout: 80, maxTotalTimeout: 120, onProgress: () => {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("rejects an aborted call with signal.reason, never relabelled as a timeout", async () => {
    const { c } = await connect({ "server/discover": discoverHandler(), "tools/call": never });
    const controller = new AbortController();
    const pending = c.callTool("x", {}, { signal: controller.signal });
    const reason = new Error("user gave up");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

describe("concurrency", () => {
  it("runs requests concurrently by default", async () => {
    let active = 0;
    let peak = 0;
    const gate = deferred();
    const { c } = await connect({
      "server/discover": discoverHandler(),
      "tools/call": async () => {
        active++;
        peak = Math.max(peak, active);
        if (peak === 3) gate.resolve();
        await gate.promise;
        active--;
        return ok();
      },
    });
    await Promise.all([c.callTool("a"), c.callTool("b"), c.callTool("c")]);
    expect(peak).toBe(3);
  });

  it("serialize: one exchange at a time, timeouts counted from the turn, close waits for the one in flight", async () => {
    let active = 0;
    let peak = 0;
    const release = deferred();
    const started = deferred();
    const { c } = await connect(
      {
        "server/discover": discoverHandler(),
        "tools/call": async (params) => {
          active++;
          peak = Math.max(peak, active);
          if (params.name === "first") {
            started.resolve();
            await release.promise;
          } else {
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          active--;
          return { resultType: "complete", content: [{ type: "text", text: params.name }] };
        },
      },
      { serialize: true },
    );
    const first = c.callTool("first");
    await started.promise;
    // Queued for longer than its own timeout: the timeout only starts when it takes its turn.
    const second = c.callTool("second", {}, { timeout: 200 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release.resolve();
    expect((await first).content).toBe("first");
    expect((await second).content).toBe("second");
    expect(peak).toBe(1);

    // close() lets the exchange in flight finish; the queued one fails.
    const hold = deferred();
    const holding = deferred();
    const { c: c2 } = await connect(
      {
        "server/discover": discoverHandler(),
        "tools/call": async (params) => {
          if (params.name === "held") {
            holding.resolve();
            await hold.promise;
          }
          return { resultType: "complete", content: [{ type: "text", text: params.name }] };
        },
      },
      { serialize: true },
    );
    const held = c2.callTool("held");
    await holding.promise;
    const queued = c2.callTool("queued");
    const closing = c2.close();
    hold.resolve();
    await closing;
    expect((await held).content).toBe("held");
    await expect(queued).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe("close", () => {
  it("is idempotent and fails pending calls with ConnectionClosedError", async () => {
    const { c } = await connect({ "server/discover": discoverHandler(), "tools/call": never });
    const pending = c.callTool("x");
    await Promise.all([c.close(), c.close()]);
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(c.callTool("x")).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(c.connect(undefined as never)).rejects.toThrow(/closed client/);
  });
});

/** A transport that dies like a crashed process: the sink sees onClose(reason). */
class CrashableTransport implements Transport {
  readonly traits = { perRequestStream: false };
  private sink: TransportSink | undefined;
  private dead = false;
  constructor(private readonly inner: Transport) {}
  start(sink: TransportSink) {
    this.sink = sink;
    return this.inner.start({
      onMessage: (v, i) => sink.onMessage(v, i),
      onInvalid: (e) => sink.onInvalid(e),
      onClose: (r) => this.crash(r),
    });
  }
  send(...args: Parameters<Transport["send"]>) {
    if (this.dead) return Promise.reject(new ConnectionClosedError("dead"));
    return this.inner.send(...args);
  }
  close(reason?: Error) {
    this.crash(reason);
    return this.inner.close(reason);
  }
  crash(reason?: Error) {
    if (this.dead) return;
    this.dead = true;
    this.sink?.onClose(reason);
  }
}

class FakeCrash extends ConnectionClosedError {
  override name = "McpCrashError";
  readonly exitCode = 3;
}

describe("crashes and respawn", () => {
  it("rejects pending calls with the crash error; the next call names autoRespawn", async () => {
    const r = await responder({ "server/discover": discoverHandler(), "tools/call": never });
    open.push(r);
    const t = new CrashableTransport(r.transport);
    const c = createClient({ name: "t", version: "1" });
    open.push(c);
    await c.connect(t);
    const pending = c.callTool("x");
    await r.waitFor((m) => m.method === "tools/call");
    const crash = new FakeCrash("exited with code 3");
    t.crash(crash);
    await expect(pending).rejects.toBe(crash);
    const next = await c.callTool("x").catch((e) => e);
    expect(next).toBeInstanceOf(ConnectionClosedError);
    expect(next.message).toContain("autoRespawn");
    expect(next.cause).toBe(crash);
  });

  it("with autoRespawn and a factory, the next call reconnects with a fresh handshake", async () => {
    const servers: Responder[] = [];
    const transports: CrashableTransport[] = [];
    const factory = async () => {
      const r = await responder({
        ...legacyHandlers(),
        "tools/call": () => ({ content: [{ type: "text", text: `server ${servers.length}` }] }),
      });
      servers.push(r);
      open.push(r);
      const t = new CrashableTransport(r.transport);
      transports.push(t);
      return t;
    };
    const c = createClient({ name: "t", version: "1", autoRespawn: true });
    open.push(c);
    await c.connect(factory);
    expect((await c.callTool("x")).content).toBe("server 1");
    transports[0]!.crash(new FakeCrash("killed"));
    expect((await c.callTool("x")).content).toBe("server 2");
    expect(c.era).toBe("legacy");
    // The respawned server got a full handshake, with no new probe: the era was remembered.
    expect(servers[1]!.requests("initialize")).toHaveLength(1);
    expect(servers[1]!.requests("server/discover")).toHaveLength(0);
    await servers[1]!.waitFor((m) => m.method === "notifications/initialized");
  });

  it("autoRespawn with a plain Transport says a factory is needed", async () => {
    const r = await responder({ "server/discover": discoverHandler() });
    open.push(r);
    const t = new CrashableTransport(r.transport);
    const c = createClient({ name: "t", version: "1", autoRespawn: true });
    open.push(c);
    await c.connect(t);
    t.crash(new FakeCrash("gone"));
    await expect(c.ping()).rejects.toThrow(/factory/);
  });
});

describe("legacy HTTP session expiry", () => {
  it("re-initializes once on SessionExpiredError and retries the call", async () => {
    let expireNext = false;
    const r = await responder({ ...legacyHandlers(), "tools/call": ok });
    open.push(r);
    const inner = r.transport;
    const expiring: Transport = {
      traits: inner.traits,
      start: (sink) => inner.start(sink),
      close: (reason) => inner.close(reason),
      async send(message, options) {
        if (expireNext && "method" in message && message.method === "tools/call") {
          expireNext = false;
          throw Object.assign(new TransportError("session gone"), { name: "SessionExpiredError" });
        }
        return inner.send(message, options);
      },
    };
    const c = createClient({ name: "t", version: "1" });
    open.push(c);
    await c.connect(expiring);
    expireNext = true;
    await expect(c.callTool("x")).resolves.toBeDefined();
    expect(r.requests("initialize")).toHaveLength(2);
    expect(r.requests("tools/call")).toHaveLength(1);
  });
});

describe("modern version change mid-session", () => {
  it("retries once with a supported version on -32022", async () => {
    let rejectOnce = true;
    const { c, r } = await connect({
      "server/discover": discoverHandler(),
      "tools/call": () => {
        if (rejectOnce) {
          rejectOnce = false;
          throw new JsonRpcError(-32022, "Unsupported", { supported: ["2026-07-28"], requested: "x" });
        }
        return ok();
      },
    });
    // Same version: nothing to switch to, so the error surfaces.
    await expect(c.callTool("x")).rejects.toMatchObject({ code: -32022 });
    await expect(c.callTool("x")).resolves.toBeDefined();
    expect(r.requests("tools/call")).toHaveLength(2);
  });
});
