import type { PeerObserver, Transport, WireTap } from "@mcpkit/jsonrpc";
import { formatWireEvent, tapTransport } from "@mcpkit/jsonrpc/wire-trace";
import type { ConnectionFacts, TelemetryOption } from "@mcpkit/protocol";
import { McpTelemetry, resolveTelemetry } from "@mcpkit/protocol/telemetry";
import type { Conn } from "./connection.js";

/** Options of the server's observability (a part of {@link ServerOptions}). */
export interface ServerObservability {
  /**
   * OpenTelemetry: a `SERVER` span per request and notification received (its parent the trace context in
   * `params._meta`), a `CLIENT` span per request the server sends (elicitation, sampling, roots in a legacy
   * session), `mcp.server.operation.duration` and `mcp.server.session.duration`, per the MCP semantic
   * conventions. Default: on when `@opentelemetry/api` is installed (no SDK: a few no-op calls per request);
   * `false` turns it off; `{ api, tracerProvider, meterProvider }` chooses what to use.
   */
  telemetry?: TelemetryOption;
  /**
   * The wire trace: one line per JSON-RPC message in and out. `true` writes to `console.error` (never
   * stdout, which a stdio server speaks on); a function receives each line. Default: on when the
   * environment has `MCPKIT_DEBUG=wire`.
   */
  trace?: boolean | ((line: string) => void);
  /** A tap on every JSON-RPC message in and out, as parsed and as sent. */
  onMessage?: WireTap;
}

const cache = new WeakMap<object, Promise<McpTelemetry | undefined>>();
const resolved = new WeakMap<object, McpTelemetry | null>();

/**
 * The server's {@link McpTelemetry}, resolved once per options object: synchronously (`null` for none)
 * once resolved, so a 2026-07-28 HTTP request that connects anew waits for nothing.
 */
export function serverTelemetry(
  options: ServerObservability,
): McpTelemetry | null | Promise<McpTelemetry | null> {
  const done = resolved.get(options);
  if (done !== undefined) return done;
  let pending = cache.get(options);
  if (pending === undefined) {
    pending = resolveTelemetry(options.telemetry, "server", "@mcpkit/server", "0.1.0");
    cache.set(options, pending);
  }
  return pending.then((t) => {
    resolved.set(options, t ?? null);
    return t ?? null;
  });
}

/** Whether the environment turns the wire trace on (`MCPKIT_DEBUG=wire` or `*`). */
export function wireTraceFromEnv(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.MCPKIT_DEBUG?.split(",").some((d) => d.trim() === "wire" || d.trim() === "*") === true;
}

/** What one connection is observed with: its transport (tapped when tracing) and its peer's observer. */
export interface ConnObservation {
  readonly transport: Transport;
  readonly observer: PeerObserver | undefined;
  /** Records `mcp.server.session.duration` when the connection was a session (legacy, or a pipe). */
  readonly closed: ((reason: Error | undefined) => void) | undefined;
}

/** Prepares the observation of `conn` on `transport`; allocates nothing when nothing is on. */
export function observeConnection(
  options: ServerObservability,
  telemetry: McpTelemetry | null,
  transport: Transport,
  conn: Conn,
): ConnObservation {
  let tapped = transport;
  const trace = options.trace ?? (wireTraceFromEnv() ? true : undefined);
  const onMessage = options.onMessage;
  // A legacy HTTP session's transport has neither trait (one long-lived channel, like a pipe); it is the
  // one with a session id of its own (transport-specific state, as the design has it).
  const http =
    transport.traits.perRequestStream ||
    transport.traits.perRequestHeaders === true ||
    "sessionId" in transport;
  if (trace || onMessage !== undefined) {
    const label = http ? "server http" : "server stdio";
    const write =
      typeof trace === "function" ? trace : trace ? (line: string) => console.error(line) : undefined;
    tapped = tapTransport(transport, (event) => {
      onMessage?.(event);
      if (write !== undefined) {
        const era =
          conn.era === undefined
            ? undefined
            : `${conn.era}${conn.session ? ` ${conn.session.protocolVersion}` : ""}`;
        write(formatWireEvent(event, { transport: label, era }));
      }
    });
  }
  // No SDK registered: no observer, so the peer pays nothing per message.
  if (telemetry === null || !telemetry.active)
    return { transport: tapped, observer: undefined, closed: undefined };
  const facts: ConnectionFacts = {
    network: http
      ? { "network.transport": "tcp", "network.protocol.name": "http" }
      : { "network.transport": "pipe" },
    protocolVersion: () => conn.session?.protocolVersion,
    sessionId: () => undefined,
  };
  const started = McpTelemetry.now();
  return {
    transport: tapped,
    observer: telemetry.observer(facts),
    closed: (reason) => {
      // A 2026-07-28 HTTP request connects on its own: no session to measure.
      if (conn.era === "legacy" || !http) telemetry.endSession(started, facts, reason);
    },
  };
}
