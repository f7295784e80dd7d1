import type { Transport } from "@mcpkit/jsonrpc";

/**
 * Wraps `inner` so that each line a stdio server writes that is not JSON-RPC reaches `onJunk` (for the
 * doctor and the log); messages pass unchanged. `onJunk` is told whether any message came before.
 */
export function tapJunk(inner: Transport, onJunk: (line: string, sawMessage: boolean) => void): Transport {
  let sawMessage = false;
  return {
    get traits() {
      return inner.traits;
    },
    start: (sink) =>
      inner.start({
        onMessage(value, info) {
          sawMessage = true;
          sink.onMessage(value, info);
        },
        onInvalid(error) {
          onJunk(error.message.replace(/^Not JSON: /, ""), sawMessage);
          sink.onInvalid(error);
        },
        onClose(reason) {
          sink.onClose(reason);
        },
      }),
    send: (message, options) => inner.send(message, options),
    close: (reason) => inner.close(reason),
  };
}
