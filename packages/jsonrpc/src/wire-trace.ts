import type { JsonRpcMessage } from "./messages.js";
import type { MessageInfo, SendOptions, Transport, TransportSink } from "./transport.js";

/** One JSON-RPC message seen on a transport by {@link tapTransport}. */
export interface WireEvent {
  /** `out` for a message sent, `in` for one received. */
  readonly direction: "in" | "out";
  /** The message as sent or as parsed (a batch is one event with an array). */
  readonly message: unknown;
  /** Milliseconds since the tap was made (monotonic where the runtime has `performance.now`). */
  readonly elapsed: number;
}

/** A function told of every message both ways; it must not throw or keep the message to mutate it. */
export type WireTap = (event: WireEvent) => void;

const now: () => number =
  typeof performance !== "undefined" && typeof performance.now === "function"
    ? () => performance.now()
    : () => Date.now();

/**
 * Wraps `transport` so that `tap` sees every message sent and received, in order, before the peer does
 * (inbound) and as it is handed to the transport (outbound). Only the {@link Transport} members pass
 * through (read transport-specific state on the original). Without a tap, do not wrap: nothing is paid.
 * A throwing tap is swallowed: a trace must never break the connection.
 */
export function tapTransport(transport: Transport, tap: WireTap): Transport {
  const start = now();
  const emit = (direction: "in" | "out", message: unknown): void => {
    try {
      tap({ direction, message, elapsed: now() - start });
    } catch {
      // A broken tap is the app's bug; the connection goes on.
    }
  };
  // A new object, not a prototype link to the original: concrete transports may keep private fields
  // that a getter read through another receiver would trip on. Callers that read transport-specific
  // state (a session id) keep the original for it.
  const tapped: Transport = {
    get traits() {
      return transport.traits;
    },
    start: (sink: TransportSink) =>
      transport.start({
        onMessage(value: unknown, info?: MessageInfo) {
          emit("in", value);
          sink.onMessage(value, info);
        },
        onInvalid: (error) => sink.onInvalid(error),
        onClose: (reason) => sink.onClose(reason),
      }),
    send: (message: JsonRpcMessage, options?: SendOptions) => {
      emit("out", message);
      return transport.send(message, options);
    },
    close: (reason?: Error) => transport.close(reason),
  };
  return tapped;
}

/** Options of {@link formatWireEvent}. */
export interface WireFormatOptions {
  /** What carries the messages, printed on each line (`stdio`, `http`). */
  transport: string;
  /** The protocol era or version in force, printed on each line when given. */
  era?: string | undefined;
  /** Bodies longer than this many characters are cut with `…` (default 200). */
  maxBody?: number;
}

function describe(message: unknown): string {
  if (Array.isArray(message)) return `batch of ${message.length}`;
  if (message === null || typeof message !== "object") return "invalid";
  const m = message as Record<string, unknown>;
  const id = m.id === undefined ? "" : ` #${String(m.id)}`;
  if (typeof m.method === "string")
    return m.id === undefined ? `${m.method} (notification)` : `${m.method}${id}`;
  if ("error" in m) return `error${id}`;
  return `result${id}`;
}

/**
 * One human-readable line for a wire event: elapsed time, direction arrow, transport and era, what the
 * message is (method and id, result, error), its size in bytes of JSON and its body cut to `maxBody`.
 *
 * `+   12.3ms → stdio modern tools/call #3 112B {"jsonrpc":"2.0",…}`
 */
export function formatWireEvent(event: WireEvent, options: WireFormatOptions): string {
  const body = JSON.stringify(event.message) ?? "undefined";
  const max = options.maxBody ?? 200;
  const size = byteLength(body);
  const cut = body.length > max ? `${body.slice(0, max)}…` : body;
  const arrow = event.direction === "out" ? "→" : "←";
  const where = options.era === undefined ? options.transport : `${options.transport} ${options.era}`;
  const time = `+${event.elapsed.toFixed(1).padStart(8)}ms`;
  return `${time} ${arrow} ${where} ${describe(event.message)} ${size}B ${cut}`;
}

const encoder = new TextEncoder();
function byteLength(text: string): number {
  // ASCII is the common case: its length is its byte count, without encoding it.
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return encoder.encode(text).length;
  }
  return text.length;
}
