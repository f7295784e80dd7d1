import type { JsonRpcMessage, PeerObserver } from "@mcpkit/jsonrpc";
import { formatWireEvent } from "@mcpkit/jsonrpc/wire-trace";
import type { ConnectionFacts } from "@mcpkit/protocol";
import type { McpTelemetry } from "@mcpkit/protocol/telemetry";
import { type ServerObservability, wireTraceFromEnv } from "./telemetry.js";

/** How the 2026-07-28 requests of one server are observed: built once, shared by every request. */
export interface ModernObservation {
  /** The telemetry observer (a `SERVER` span per request), undefined when no SDK is registered. */
  readonly observer: PeerObserver | undefined;
  /** Tells the wire trace and `onMessage` of one message in or out; undefined when neither is on. */
  readonly tap: ((direction: "in" | "out", message: JsonRpcMessage) => void) | undefined;
}

const HTTP_FACTS: ConnectionFacts = {
  network: { "network.transport": "tcp", "network.protocol.name": "http" },
  protocolVersion: () => undefined,
  sessionId: () => undefined,
};

const now: () => number =
  typeof performance !== "undefined" && typeof performance.now === "function"
    ? () => performance.now()
    : () => Date.now();

/**
 * The observation of `Server.handle`'s requests: what `observeConnection` gives a connection, made once
 * per server instead of once per request. The carrier of a modern request is HTTP (the only transport
 * the 2026-07-28 revision runs stateless on), so that is what its spans say.
 */
export function observeModern(
  options: ServerObservability,
  telemetry: McpTelemetry | null,
): ModernObservation {
  const observer = telemetry?.active ? telemetry.observer(HTTP_FACTS) : undefined;
  const trace = options.trace ?? (wireTraceFromEnv() ? true : undefined);
  const onMessage = options.onMessage;
  if (!trace && onMessage === undefined) return { observer, tap: undefined };
  const write =
    typeof trace === "function" ? trace : trace ? (line: string) => console.error(line) : undefined;
  const start = now();
  const tap = (direction: "in" | "out", message: JsonRpcMessage): void => {
    const event = { direction, message, elapsed: now() - start };
    try {
      onMessage?.(event);
      write?.(formatWireEvent(event, { transport: "server http", era: "modern" }));
    } catch {
      // A broken tap is the app's bug; the request goes on.
    }
  };
  return { observer, tap };
}
