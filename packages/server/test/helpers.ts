import {
  createInMemoryPair,
  createPeer,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type MessageInfo,
  type Peer,
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

let nextId = 1;

/**
 * Sends one modern request through `server.handle` (as the HTTP handler does) and returns the response;
 * `sent` is every message of the request in order (its notifications, then the response).
 */
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
  const sent: JsonRpcMessage[] = [];
  const response = await server.handle(message as JsonRpcRequest, {
    info: options.info ?? {},
    notify: (notification) => void sent.push(notification),
  });
  if (response === undefined) throw new Error(`server.handle answered nothing to ${method}`);
  sent.push(response);
  return { response, sent };
}
