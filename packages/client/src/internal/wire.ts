import type {
  JsonRpcMessage,
  JsonRpcRequest,
  SendOptions,
  Transport,
  TransportTraits,
} from "@mcpkit/jsonrpc";
import type { ProtocolEra } from "@mcpkit/protocol";

/** What the client adds between its peer and the user's transport. */
export interface WireHooks {
  /** The era the client speaks on this connection now. */
  era(): ProtocolEra;
  /** An error to refuse every send with (the client is closing), or undefined. */
  refuse(): Error | undefined;
  /**
   * Whether an aborted request must be cancelled with an explicit `notifications/cancelled` although the
   * transport has a stream per request (legacy Streamable HTTP, where a disconnect is not a cancel).
   */
  explicitCancel(method: string): boolean;
  /** Told of input that could not become a message (before the peer answers it). */
  onInvalid?(error: Error): void;
}

/**
 * Wraps the user's transport for the client's peer. It forwards everything, and: refuses sends while the
 * client closes, and sends the explicit cancel that a legacy-era transport with a stream per request needs.
 *
 * Its traits answer for the era the client negotiated: on a transport that carries headers (HTTP) a
 * request has a stream of its own exactly in the modern era. The transport itself learns the era only
 * from the request it is sent, which is too late for the peer, which decides before the send whether an
 * abort closes the stream or sends `notifications/cancelled`.
 */
export function wrapTransport(inner: Transport, hooks: WireHooks): Transport {
  const innerTraits = inner.traits;
  const traits: TransportTraits =
    innerTraits?.perRequestHeaders === true
      ? {
          get perRequestStream() {
            return hooks.era() === "modern";
          },
          perRequestHeaders: true,
        }
      : innerTraits;
  return {
    traits,
    start: (sink) => {
      const onInvalid = hooks.onInvalid;
      if (onInvalid === undefined) return inner.start(sink);
      return inner.start({
        onMessage: sink.onMessage.bind(sink),
        onInvalid: (error) => {
          onInvalid(error);
          sink.onInvalid(error);
        },
        onClose: sink.onClose.bind(sink),
      });
    },
    close: (reason) => inner.close(reason),
    // Not async: the common case hands the inner transport's promise straight back.
    send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
      const refusal = hooks.refuse();
      if (refusal) return Promise.reject(refusal);
      const signal = options?.signal;
      if (signal === undefined || !("method" in message) || !("id" in message)) {
        return sendSafely(inner, message, options);
      }
      const request = message as JsonRpcRequest;
      if (traits.perRequestStream && hooks.explicitCancel(request.method)) {
        const id = request.id;
        signal.addEventListener(
          "abort",
          () => {
            const reason = signal.reason instanceof Error ? signal.reason.message : undefined;
            const cancel: JsonRpcMessage = {
              jsonrpc: "2.0",
              method: "notifications/cancelled",
              params: reason ? { requestId: id, reason } : { requestId: id },
            };
            inner.send(cancel).catch(() => {});
          },
          { once: true },
        );
      }
      return sendSafely(inner, request, options);
    },
  };
}

/** The inner transport's send, with a synchronous throw turned into a rejection. */
function sendSafely(
  inner: Transport,
  message: JsonRpcMessage,
  options: SendOptions | undefined,
): Promise<void> {
  try {
    return inner.send(message, options);
  } catch (error) {
    return Promise.reject(error);
  }
}
