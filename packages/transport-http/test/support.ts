import {
  ConnectionClosedError,
  type JsonRpcId,
  type JsonRpcMessage,
  type MessageInfo,
  type SendOptions,
  type Transport,
  type TransportSink,
} from "@mcpkit/jsonrpc";
import { MetaKey } from "@mcpkit/protocol";
import type { StreamableHttpHandler } from "../src/index.js";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";

/** A fetch that hands requests straight to the handler: no socket. */
export function inProcessFetch(handler: StreamableHttpHandler) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
    handler.fetch(new Request(input, init));
}

/**
 * The "server" side of a conformance pair over HTTP: the handler gives the app one transport per
 * legacy session or per modern request; this fans them into one Transport for a single Peer, routing
 * answers back by request id. It also answers `initialize` itself (the suite's peer has no handler for
 * it) and, for the modern era, strips the `_meta` protocol version the test client adds.
 */
export function createFanIn(options: { stripModernMeta?: boolean } = {}) {
  let sink: TransportSink | undefined;
  const backlog: Array<[unknown, MessageInfo | undefined]> = [];
  const routes = new Map<JsonRpcId, Transport>();
  const members = new Set<Transport>();
  let latest: Transport | undefined;
  let closed = false;

  function forward(value: unknown, info: MessageInfo | undefined): void {
    if (sink) sink.onMessage(value, info);
    else backlog.push([value, info]);
  }

  const transport: Transport = {
    traits: { perRequestStream: false },
    async start(s) {
      if (sink) throw new Error("fan-in start() twice");
      sink = s;
      for (const [v, i] of backlog.splice(0)) s.onMessage(v, i);
    },
    async send(message: JsonRpcMessage, opts?: SendOptions) {
      if (closed) throw new ConnectionClosedError();
      const key = "method" in message ? opts?.relatedRequestId : (message.id ?? undefined);
      const target = (key !== undefined ? routes.get(key) : undefined) ?? latest;
      if (!target) throw new ConnectionClosedError("no connection to route to");
      if (!("method" in message) && message.id !== null) routes.delete(message.id);
      await target.send(message, opts);
    },
    async close(reason?: Error) {
      if (closed) return;
      closed = true;
      for (const m of [...members]) await m.close().catch(() => {});
      sink?.onClose(reason);
    },
  };

  async function connect(t: Transport): Promise<void> {
    members.add(t);
    latest = t;
    await t.start({
      onMessage(value, info) {
        const m = value as { id?: JsonRpcId; method?: string; params?: Record<string, unknown> };
        if (m.method === "initialize" && m.id !== undefined) {
          void t.send(
            {
              jsonrpc: "2.0",
              id: m.id,
              result: {
                protocolVersion: LEGACY,
                capabilities: {},
                serverInfo: { name: "fan-in", version: "1" },
              },
            },
            { relatedRequestId: m.id },
          );
          return;
        }
        if (m.method !== undefined && m.id !== undefined) routes.set(m.id, t);
        if (options.stripModernMeta && m.params?._meta) {
          const {
            [MetaKey.ProtocolVersion]: _v,
            [MetaKey.ClientCapabilities]: _c,
            ...meta
          } = m.params._meta as Record<string, unknown>;
          const params = { ...m.params };
          if (Object.keys(meta).length === 0) delete params._meta;
          else params._meta = meta;
          forward({ ...m, params }, info);
          return;
        }
        forward(value, info);
      },
      onInvalid(error) {
        sink?.onInvalid(error);
      },
      onClose() {
        members.delete(t);
        if (latest === t) latest = undefined;
      },
    });
  }

  return { transport, connect };
}

/** Wraps a client transport so every request carries the modern `_meta` (protocol version, capabilities). */
export function withModernMeta(inner: Transport): Transport {
  return {
    get traits() {
      return inner.traits;
    },
    start: (s) => inner.start(s),
    close: (r) => inner.close(r),
    send(message, opts) {
      if ("method" in message && "id" in message) {
        const params = (message.params ?? {}) as Record<string, unknown>;
        const meta = (params._meta ?? {}) as Record<string, unknown>;
        return inner.send(
          {
            ...message,
            params: {
              ...params,
              _meta: { ...meta, [MetaKey.ProtocolVersion]: MODERN, [MetaKey.ClientCapabilities]: {} },
            },
          },
          opts,
        );
      }
      return inner.send(message, opts);
    },
  };
}

/** POSTs a raw legacy initialize and returns the session id (body consumed). */
export async function rawInitialize(
  doFetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>,
  url: string,
  version = LEGACY,
): Promise<{ sessionId: string; response: Response; body: string }> {
  const response = await doFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  const body = await response.text();
  const sessionId = response.headers.get("mcp-session-id");
  if (!sessionId) throw new Error(`initialize gave no session id: ${response.status} ${body}`);
  return { sessionId, response, body };
}

/** Parses the `data:` payloads of an SSE body that is complete. */
export function sseMessages(text: string): unknown[] {
  const out: unknown[] = [];
  for (const block of text.split(/\n\n/)) {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    if (data !== "") out.push(JSON.parse(data));
  }
  return out;
}
