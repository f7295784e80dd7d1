// Hand-written responders for protocol edge cases our own server never produces: a Peer on the far end
// of an in-memory pair, answering with exactly what a test needs, and recording what the client sent.
import {
  createInMemoryPair,
  createPeer,
  JsonRpcError,
  type JsonRpcMessage,
  type Peer,
  type RequestContext,
  type Transport,
} from "@mcpkit/jsonrpc";

export type Handler = (params: any, context: RequestContext) => unknown;

export interface Responder {
  /** The client's end. */
  transport: Transport;
  /** The server's peer (send notifications with `peer.notify`). */
  peer: Peer;
  /** Every message the client sent, in order. */
  received: JsonRpcMessage[];
  /** Requests the client sent with this method. */
  requests(method: string): Array<{ id: string | number; params: any }>;
  /** Resolves when a message matching `predicate` has arrived (bounded by vitest's test timeout). */
  waitFor(predicate: (message: any) => boolean): Promise<any>;
  close(): Promise<void>;
}

export async function responder(
  handlers: Record<string, Handler>,
  options: { perRequestStream?: boolean } = {},
): Promise<Responder> {
  const [clientEnd, serverEnd] = createInMemoryPair({ perRequestStream: options.perRequestStream ?? false });
  const received: JsonRpcMessage[] = [];
  const waiters: Array<{ predicate: (m: any) => boolean; resolve: (m: any) => void }> = [];
  // Record every inbound message before the peer sees it.
  const recording: Transport = {
    traits: serverEnd.traits,
    start: (sink) =>
      serverEnd.start({
        onMessage(value, info) {
          received.push(value as JsonRpcMessage);
          for (const w of [...waiters]) {
            if (w.predicate(value)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(value);
            }
          }
          sink.onMessage(value, info);
        },
        onInvalid: (e) => sink.onInvalid(e),
        onClose: (r) => sink.onClose(r),
      }),
    send: (m, o) => serverEnd.send(m, o),
    close: (r) => serverEnd.close(r),
  };
  const peer = createPeer(recording, { timeout: 10_000 });
  for (const [method, handler] of Object.entries(handlers)) peer.onRequest(method, handler);
  await peer.start();
  return {
    transport: clientEnd,
    peer,
    received,
    requests: (method) =>
      received
        .filter((m: any) => m.method === method && "id" in m)
        .map((m: any) => ({ id: m.id, params: m.params })),
    waitFor(predicate) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    close: () => peer.close(),
  };
}

export const PV = "io.modelcontextprotocol/protocolVersion";
export const CAPS = "io.modelcontextprotocol/clientCapabilities";
export const INFO = "io.modelcontextprotocol/clientInfo";

/** A modern `server/discover` handler. */
export function discoverHandler(extra: Record<string, unknown> = {}): Handler {
  return () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: { listChanged: true }, prompts: {}, resources: { subscribe: true } },
    ttlMs: 0,
    cacheScope: "public",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "fixture", version: "1.0.0" } },
    ...extra,
  });
}

/** Legacy handlers: `server/discover` unknown, `initialize` answered with the client's version. */
export function legacyHandlers(
  capabilities: Record<string, unknown> = { tools: {} },
): Record<string, Handler> {
  return {
    "server/discover": () => {
      throw new JsonRpcError(-32601, "Method not found");
    },
    initialize: (params: any) => ({
      protocolVersion: params.protocolVersion,
      capabilities,
      serverInfo: { name: "legacy-fixture", version: "0.9.0" },
      instructions: "be nice",
    }),
  };
}

/** A promise and its resolver. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
