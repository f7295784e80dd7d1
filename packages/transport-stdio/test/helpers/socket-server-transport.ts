import type { Socket } from "node:net";
import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type SendOptions,
  type Transport,
  type TransportSink,
} from "@mcpkit/jsonrpc";
import { createStreamTransport, type StreamTransport } from "../../src/index.js";

/**
 * A stream transport over a socket that is accepted later: the conformance suite starts the server
 * side before the client side spawns the child that connects back. Sends wait for the connection.
 */
export function socketServerTransport(accepted: Promise<Socket>): Transport {
  let sink: TransportSink | undefined;
  let inner: StreamTransport | undefined;
  let closed = false;
  const ready = accepted.then((socket) => {
    inner = createStreamTransport({ readable: socket, writable: socket });
    if (closed) {
      socket.destroy();
      throw new ConnectionClosedError();
    }
    if (sink) void inner.start(sink);
    return inner;
  });
  ready.catch(() => {});
  return {
    traits: { perRequestStream: false },
    async start(s) {
      if (sink) throw new Error("socketServerTransport.start() was called twice");
      sink = s;
      if (inner) await inner.start(s);
    },
    async send(message: JsonRpcMessage, options?: SendOptions) {
      if (closed) throw new ConnectionClosedError();
      await (await ready).send(message, options);
    },
    async close(reason?: Error) {
      if (closed) return;
      closed = true;
      if (inner) await inner.close(reason);
      else sink?.onClose(reason);
    },
  };
}
