import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest, SendOptions, Transport } from "@mcpkit/jsonrpc";

/**
 * A symbol key a caller puts on a request's params to learn the JSON-RPC id the peer gives it (the peer
 * allocates ids itself). The wire wrapper calls the function with the id and strips the key before the
 * message leaves; `JSON.stringify` would drop it anyway.
 */
export const LEARN_ID: unique symbol = Symbol("mcpkit.client.learnId");

/** What the client adds between its peer and the user's transport. */
export interface WireHooks {
  /** An error to refuse every send with (the client is closing), or undefined. */
  refuse(): Error | undefined;
  /**
   * Whether an aborted request must be cancelled with an explicit `notifications/cancelled` although the
   * transport has a stream per request (legacy Streamable HTTP, where a disconnect is not a cancel).
   */
  explicitCancel(method: string): boolean;
}

/**
 * Wraps the user's transport for the client's peer. It forwards everything, and: learns request ids for
 * callers that asked ({@link LEARN_ID}), refuses sends while the client
 * closes, and sends the explicit cancel that a legacy-era transport with a stream per request needs.
 */
export function wrapTransport(inner: Transport, hooks: WireHooks): Transport {
  return {
    traits: inner.traits,
    start: (sink) => inner.start(sink),
    close: (reason) => inner.close(reason),
    // Not async: the common case hands the inner transport's promise straight back.
    send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
      const refusal = hooks.refuse();
      if (refusal) return Promise.reject(refusal);
      if (!("method" in message) || !("id" in message)) return sendSafely(inner, message, options);
      let request = message as JsonRpcRequest;
      const params = request.params as Record<string | symbol, unknown> | undefined;
      if (params && typeof params === "object" && LEARN_ID in params) {
        const { [LEARN_ID]: learn, ...rest } = params;
        request = { ...request, params: rest as Record<string, unknown> };
        try {
          (learn as (id: JsonRpcId) => void)(request.id);
        } catch (error) {
          return Promise.reject(error);
        }
      }
      const signal = options?.signal;
      if (signal && inner.traits.perRequestStream && hooks.explicitCancel(request.method)) {
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
