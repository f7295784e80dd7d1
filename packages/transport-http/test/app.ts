import { createPeer, JsonRpcError, type Peer, type Transport } from "@mcpkit/jsonrpc";
import type { HttpConnectionInfo, HttpMessageInfo, StreamableHttpHandlerOptions } from "../src/index.js";
import { LEGACY } from "./support.js";

/** What a test app saw. */
export interface AppLog {
  connections: HttpConnectionInfo[];
  peers: Peer[];
  infos: HttpMessageInfo[];
  notifications: Array<{ method: string; params: unknown; sessionId: string | undefined }>;
  /** Aborted handler signals, by request method. */
  aborted: string[];
}

/**
 * A small app in the shape @mcpkit/server will have: one Peer per transport the handler hands over.
 * Methods: initialize, echo, fail (-32001), invalid (-32602 with data), slow (waits for its
 * signal), notify-then-answer, listen (long-lived: acknowledges, then streams until cancelled),
 * reconnect (closes its SSE connection, then answers).
 */
export function createTestApp(extra: Partial<StreamableHttpHandlerOptions> = {}) {
  const log: AppLog = { connections: [], peers: [], infos: [], notifications: [], aborted: [] };
  const waiters: Array<() => void> = [];
  const enteredWaiters = new Map<string, () => void>();
  const enteredPromises = new Map<string, Promise<void>>();
  const entered = (method: string): Promise<void> => {
    let p = enteredPromises.get(method);
    if (!p) {
      p = new Promise<void>((r) => enteredWaiters.set(method, r));
      enteredPromises.set(method, p);
    }
    return p;
  };
  let release!: () => void;
  let released = new Promise<void>((r) => (release = r));
  const options: StreamableHttpHandlerOptions = {
    ...extra,
    async connect(transport: Transport, info: HttpConnectionInfo) {
      log.connections.push(info);
      const peer = createPeer(transport);
      log.peers.push(peer);
      peer.onRequest("initialize", (params: { protocolVersion?: string }) => {
        if (params?.protocolVersion === "1999-01-01")
          throw new JsonRpcError(-32602, "Unsupported protocol version");
        return { protocolVersion: LEGACY, capabilities: {}, serverInfo: { name: "app", version: "1" } };
      });
      peer.onRequest("echo", (params, ctx) => {
        log.infos.push(ctx.info as HttpMessageInfo);
        return params;
      });
      peer.onRequest("fail", () => {
        throw new JsonRpcError(-32001, "failed on purpose");
      });
      peer.onRequest("invalid", () => {
        throw new JsonRpcError(-32602, "Invalid arguments", { path: "text" });
      });
      peer.onRequest("slow", (_p, ctx) => {
        void entered("slow");
        enteredWaiters.get("slow")?.();
        return new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            log.aborted.push("slow");
            reject(ctx.signal.reason);
          });
        });
      });
      peer.onRequest("notify-then-answer", async (_p, ctx) => {
        await ctx.notify("notifications/message", { level: "info", data: "working" });
        return { done: true };
      });
      peer.onRequest("listen", async (_p, ctx) => {
        await ctx.notify("notifications/subscriptions/acknowledged", {});
        await ctx.notify("notifications/tools/list_changed", {});
        return new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            log.aborted.push("listen");
            reject(ctx.signal.reason);
          });
        });
      });
      peer.onRequest("reconnect", async (_p, ctx) => {
        await ctx.notify("notifications/message", { level: "info", data: "before" });
        (ctx.info as HttpMessageInfo).closeSseStream?.();
        await released;
        await ctx.notify("notifications/message", { level: "info", data: "after" });
        return { reconnected: true };
      });
      peer.onAnyNotification((params, ctx) => {
        log.notifications.push({
          method: ctx.method,
          params,
          sessionId: (ctx.info as HttpMessageInfo | undefined)?.sessionId,
        });
        for (const w of waiters.splice(0)) w();
      });
      await peer.start();
    },
  };
  return {
    options,
    log,
    /** Resolves once a handler of this method (only `slow` reports) was entered. */
    entered,
    /** Lets a waiting `reconnect` handler go on. */
    release() {
      release();
      released = new Promise<void>((r) => (release = r));
    },
    /** Resolves once a notification arrived (bounded by the test timeout). */
    nextNotification(): Promise<void> {
      return new Promise((r) => waiters.push(r));
    },
  };
}
