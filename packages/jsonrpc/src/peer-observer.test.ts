import { describe, expect, it } from "vitest";
import { ErrorCode, JsonRpcError } from "./errors.js";
import { createInMemoryPair } from "./in-memory.js";
import { createPeer } from "./peer.js";
import type { PeerObserver } from "./peer-observer.js";

/** An observer that logs what it is told and stamps `_meta.seen` on what goes out. */
function loggingObserver(name: string, log: string[]): PeerObserver {
  const stamp = (params: unknown) => {
    const base = (params ?? {}) as Record<string, unknown>;
    return Object.assign({}, base, { _meta: Object.assign({}, base._meta as object, { seen: name }) });
  };
  return {
    requestOut(method, params, id) {
      log.push(`${name} out ${method} #${String(id)}`);
      return {
        params: stamp(params),
        end: (_result, error) =>
          log.push(`${name} end ${method} ${error === undefined ? "ok" : (error as Error).message}`),
      };
    },
    notificationOut(method, params) {
      log.push(`${name} notify ${method}`);
      return stamp(params);
    },
    requestIn(method, params, id) {
      const meta = (params as { _meta?: { seen?: string } } | undefined)?._meta;
      log.push(`${name} in ${method} #${String(id)} from ${meta?.seen}`);
      return {
        run: (fn, a, b) => {
          log.push(`${name} run ${method}`);
          return fn(a, b);
        },
        end: (_result, error) => log.push(`${name} answered ${method} ${error ? String(error.code) : "ok"}`),
      };
    },
    notificationIn(method) {
      log.push(`${name} got ${method}`);
      return undefined;
    },
  };
}

describe("PeerObserver", () => {
  it("sees each request and notification both ways, changes what is sent, and is told each outcome", async () => {
    const log: string[] = [];
    const [a, b] = createInMemoryPair();
    const client = createPeer(a, { observer: loggingObserver("c", log) });
    const server = createPeer(b, { observer: loggingObserver("s", log) });
    let notified: unknown;
    const got = new Promise<void>((resolve) => {
      server.onNotification("note", (params) => {
        notified = params;
        resolve();
      });
    });
    server.onRequest("echo", (params) => params);
    server.onRequest("fail", () => {
      throw new JsonRpcError(ErrorCode.InvalidParams, "bad");
    });
    server.onRequest("crash", () => {
      throw new Error("boom");
    });
    await client.start();
    await server.start();

    expect(await client.request("echo", { x: 1 })).toEqual({ x: 1, _meta: { seen: "c" } });
    await expect(client.request("fail")).rejects.toThrow("bad");
    await expect(client.request("crash")).rejects.toThrow("Internal error");
    await client.notify("note", { y: 2 });
    await got;
    expect(notified).toEqual({ y: 2, _meta: { seen: "c" } });
    expect(log).toEqual([
      "c out echo #1",
      "s in echo #1 from c",
      "s run echo",
      "s answered echo ok",
      "c end echo ok",
      "c out fail #2",
      "s in fail #2 from c",
      "s run fail",
      "s answered fail -32602",
      "c end fail bad",
      "c out crash #3",
      "s in crash #3 from c",
      "s run crash",
      "s answered crash -32603",
      "c end crash Internal error",
      "c notify note",
      "s got note",
    ]);
    await client.close();
  });

  it("is told a request that timed out, once", async () => {
    const log: string[] = [];
    const [a, b] = createInMemoryPair();
    const client = createPeer(a, { observer: loggingObserver("c", log), cancelMethod: null });
    const server = createPeer(b);
    server.onRequest("never", () => new Promise(() => {}));
    await client.start();
    await server.start();
    await expect(client.request("never", undefined, { timeout: 1 })).rejects.toThrow("timed out");
    expect(log).toEqual(["c out never #1", "c end never Request 1 timed out after 1 ms"]);
    await client.close();
  });
});
