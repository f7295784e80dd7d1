// A stdio server that writes only lines that are not JSON-RPC (a banner, logs on stdout) would keep the
// handshake waiting for the whole connect timeout (30 s). The CLI watches for it and gives up early.
import type { Transport, TransportSink } from "@mcpkit/jsonrpc";

/** How long the CLI waits, after a line that is not JSON-RPC, for anything that is. */
export const JUNK_GRACE_MS = 3000;

/** A transport watched for junk, and the signal that aborts the handshake when it is all junk. */
export interface JunkWatch {
  readonly transport: Transport;
  /** Aborted (with an error naming the line) when only junk came for `graceMs` after the first junk line. */
  readonly signal: AbortSignal;
  /** Stops watching (the handshake is over). */
  stop(): void;
}

/**
 * Wraps `inner` so that a server whose first output is not JSON-RPC, and that sends no message at all in
 * the `graceMs` after it, aborts `signal` with one line quoting what it wrote. The first message that is
 * JSON disarms the watch for good; nothing else changes on the way through.
 * @param who names the server in the error (`server "node server.js"`).
 */
export function watchForJunk(inner: Transport, who: string, graceMs: number = JUNK_GRACE_MS): JunkWatch {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disarmed = false;
  const stop = () => {
    disarmed = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const transport: Transport = {
    get traits() {
      return inner.traits;
    },
    start: (sink: TransportSink) =>
      inner.start({
        onMessage(value, info) {
          stop();
          sink.onMessage(value, info);
        },
        onInvalid(error) {
          if (!disarmed && timer === undefined) {
            const line = error.message.replace(/^Not JSON: /, "");
            timer = setTimeout(() => {
              controller.abort(
                new Error(
                  `${who} wrote only output that is not JSON-RPC, for ${graceMs / 1000} s: ${line} (over stdio, logs belong on stderr; --connect-timeout MS waits longer)`,
                ),
              );
            }, graceMs);
          }
          sink.onInvalid(error);
        },
        onClose(reason) {
          stop();
          sink.onClose(reason);
        },
      }),
    send: (message, options) => inner.send(message, options),
    close: (reason) => {
      stop();
      return inner.close(reason);
    },
  };
  return { transport, signal: controller.signal, stop };
}
