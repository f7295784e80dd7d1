import type { JsonRpcMessage, SendOptions, Transport } from "@mcpkit/jsonrpc";
import { MetaKey, modernRequestHeaders } from "@mcpkit/protocol";

/**
 * What `@mcpkit/client` does for each request, for tests that drive the transport with a bare `Peer`:
 * a modern request gets the headers `modernRequestHeaders` computes from it (the version from its `_meta`),
 * under those its send gives. The transport itself computes none.
 */
export function withModernHeaders(inner: Transport): Transport {
  return {
    get traits() {
      return inner.traits;
    },
    start: (s) => inner.start(s),
    close: (r) => inner.close(r),
    send: (message, opts) => inner.send(message, headersFor(message, opts)),
  };
}

/** The send options of `message` with its modern headers (those the send gives win), for a modern request. */
export function headersFor(message: JsonRpcMessage, opts: SendOptions | undefined): SendOptions | undefined {
  if (!("method" in message) || !("id" in message)) return opts;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.[MetaKey.ProtocolVersion];
  if (typeof version !== "string") return opts;
  const headers = Object.assign(modernRequestHeaders(version, message.method, message.params), opts?.headers);
  return { ...opts, headers };
}
