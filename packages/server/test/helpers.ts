import {
  createInMemoryPair,
  createPeer,
  type JsonRpcMessage,
  type MessageInfo,
  type Peer,
  type SendOptions,
  type Transport,
  type TransportSink,
} from "@mcpkit/jsonrpc";
import type { Server } from "../src/index.js";

export const V = "2026-07-28";

/** The `_meta` of a modern request. */
export function meta(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": V,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "1.0.0" },
    ...extra,
  };
}

export interface TestClient {
  peer: Peer;
  notifications: Array<{ method: string; params: any }>;
  request(method: string, params?: Record<string, unknown>): Promise<any>;
  /** Resolves with the next notification of `method` (bounded by the test timeout). */
  next(method: string): Promise<any>;
  close(): Promise<void>;
}

/** A client peer over an in-memory pair connected to `server`. */
export async function connectClient(
  server: Server,
  options: { perRequestStream?: boolean; onRequest?: Record<string, (params: any) => unknown> } = {},
): Promise<TestClient> {
  const [clientSide, serverSide] = createInMemoryPair({
    perRequestStream: options.perRequestStream ?? false,
  });
  const peer = createPeer(clientSide);
  const notifications: TestClient["notifications"] = [];
  const waiters: Array<{ method: string; resolve: (p: any) => void }> = [];
  peer.onAnyNotification((params, ctx) => {
    const i = waiters.findIndex((w) => w.method === ctx.method);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(params);
    else notifications.push({ method: ctx.method, params });
  });
  for (const [method, handler] of Object.entries(options.onRequest ?? {})) peer.onRequest(method, handler);
  await server.connect(serverSide);
  await peer.start();
  return {
    peer,
    notifications,
    request: (method, params) => peer.request(method, params, { timeout: 10_000 }),
    next(method) {
      const seen = notifications.findIndex((n) => n.method === method);
      if (seen >= 0) return Promise.resolve(notifications.splice(seen, 1)[0]!.params);
      return new Promise((resolve) => waiters.push({ method, resolve }));
    },
    close: () => peer.close(),
  };
}

/** A legacy session: connect, `initialize`, `notifications/initialized`. */
export async function legacyClient(
  server: Server,
  capabilities: Record<string, unknown> = {},
  onRequest: Record<string, (params: any) => unknown> = {},
  protocolVersion = "2025-11-25",
): Promise<TestClient & { init: any }> {
  const client = await connectClient(server, { onRequest });
  const init = await client.request("initialize", {
    protocolVersion,
    capabilities,
    clientInfo: { name: "legacy-test", version: "1.0.0" },
  });
  await client.peer.notify("notifications/initialized");
  return { ...client, init };
}

/**
 * A one-shot transport like the HTTP handler's modern one: it carries exactly one inbound message with
 * the given `info` (headers), collects what the server sends, and closes itself after the response.
 */
export function oneShot(
  message: Record<string, unknown>,
  info: MessageInfo = {},
): { transport: Transport; sent: JsonRpcMessage[]; done: Promise<JsonRpcMessage> } {
  const sent: JsonRpcMessage[] = [];
  let resolveDone!: (m: JsonRpcMessage) => void;
  const done = new Promise<JsonRpcMessage>((r) => (resolveDone = r));
  let sink: TransportSink | undefined;
  let closed = false;
  const transport: Transport = {
    traits: { perRequestStream: true },
    async start(s) {
      sink = s;
      queueMicrotask(() => s.onMessage(message, info));
    },
    async send(m: JsonRpcMessage, _options?: SendOptions) {
      if (closed) throw new Error("closed");
      sent.push(m);
      if ("id" in m && !("method" in m) && m.id === message.id) {
        resolveDone(m);
        queueMicrotask(() => void transport.close());
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      sink?.onClose();
    },
  };
  return { transport, sent, done };
}

let nextId = 1;

/** Sends one modern request on its own one-shot transport (as over HTTP) and returns the response. */
export async function modernCall(
  server: Server,
  method: string,
  params: Record<string, unknown> = {},
  options: {
    capabilities?: Record<string, unknown>;
    metaExtra?: Record<string, unknown>;
    info?: MessageInfo;
  } = {},
): Promise<{ response: any; sent: JsonRpcMessage[] }> {
  const message = {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: { _meta: meta(options.capabilities ?? {}, options.metaExtra ?? {}), ...params },
  };
  const { transport, sent, done } = oneShot(message, options.info ?? {});
  await server.connect(transport);
  const response = await done;
  return { response, sent };
}
