import {
  formatWireEvent,
  type PeerObserver,
  type Transport,
  tapTransport,
  type WireTap,
} from "@mcpkit/jsonrpc";
import {
  type ConnectionFacts,
  McpTelemetry,
  resolveTelemetry,
  type TelemetryAttributes,
  type TelemetryOption,
} from "@mcpkit/protocol";

/** The client's one seam to OpenTelemetry and to the wire trace. */

/** Options of the client's observability (a part of {@link ClientOptions}). */
export interface ClientObservability {
  /**
   * OpenTelemetry: spans and metrics per the MCP semantic conventions, trace context in `params._meta`.
   * Default: on when `@opentelemetry/api` is installed (no SDK registered: a few no-op calls per request);
   * `false` turns it off; `{ api, tracerProvider, meterProvider }` chooses what to use.
   */
  telemetry?: TelemetryOption;
  /**
   * The wire trace: one line per JSON-RPC message in and out (direction, transport, era, timing, size,
   * body cut at 200 characters). `true` writes to `console.error`; a function receives each line.
   * Default: on (to `console.error`) when the environment has `MCPKIT_DEBUG=wire`.
   */
  trace?: boolean | ((line: string) => void);
  /** A tap on every JSON-RPC message in and out, as parsed and as sent (for tools of your own). */
  onMessage?: WireTap;
}

const cache = new WeakMap<object, Promise<McpTelemetry | undefined>>();

/** The client's {@link McpTelemetry}, resolved once per options object (at the first connect). */
export function clientTelemetry(options: ClientObservability): Promise<McpTelemetry | undefined> {
  let resolved = cache.get(options);
  if (resolved === undefined) {
    resolved = resolveTelemetry(options.telemetry, "client", "@mcpkit/client", "0.1.0");
    cache.set(options, resolved);
  }
  return resolved;
}

/** Whether `MCPKIT_DEBUG` asks for the wire trace (read without importing `node:process`). */
export function wireTraceFromEnv(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const debug = env?.MCPKIT_DEBUG;
  return debug?.split(",").some((d) => d.trim() === "wire" || d.trim() === "*") === true;
}

/** `network.*` and `server.*` attributes of a transport, read structurally (HTTP: tcp; else a pipe). */
export function networkOf(transport: Transport): TelemetryAttributes {
  const http = transport.traits.perRequestHeaders === true || transport.traits.perRequestStream;
  if (!http) return { "network.transport": "pipe" };
  const attributes: TelemetryAttributes = { "network.transport": "tcp", "network.protocol.name": "http" };
  const url = (transport as { url?: unknown }).url;
  if (url !== undefined) {
    try {
      const u = new URL(String(url));
      attributes["server.address"] = u.hostname;
      attributes["server.port"] = Number(u.port || (u.protocol === "https:" ? 443 : 80));
    } catch {
      // Not a URL: the address is simply not recorded.
    }
  }
  return attributes;
}

/** What one session is observed with: the transport to use (tapped when tracing) and its peer's observer. */
export interface SessionObservation {
  readonly transport: Transport;
  readonly observer: PeerObserver | undefined;
  readonly facts: ConnectionFacts | undefined;
  readonly started: number;
}

/**
 * Prepares the observation of a session on `inner`: the wire trace around it when asked for, and the
 * OpenTelemetry observer of its peer when telemetry resolved. `describe` tells the era and version in force.
 */
export function observeSession(
  options: ClientObservability,
  telemetry: McpTelemetry | undefined,
  inner: Transport,
  describe: { version(): string; era(): string },
): SessionObservation {
  let transport = inner;
  const trace = options.trace ?? (wireTraceFromEnv() ? true : undefined);
  const onMessage = options.onMessage;
  if (trace || onMessage !== undefined) {
    const label = inner.traits.perRequestHeaders === true || inner.traits.perRequestStream ? "http" : "stdio";
    const write =
      typeof trace === "function" ? trace : trace ? (line: string) => console.error(line) : undefined;
    transport = tapTransport(inner, (event) => {
      onMessage?.(event);
      if (write !== undefined) {
        write(
          formatWireEvent(event, {
            transport: `client ${label}`,
            era: `${describe.era()} ${describe.version()}`,
          }),
        );
      }
    });
  }
  if (telemetry === undefined) return { transport, observer: undefined, facts: undefined, started: 0 };
  const facts: ConnectionFacts = {
    network: networkOf(inner),
    protocolVersion: describe.version,
    sessionId: () => (inner as { sessionId?: string }).sessionId,
  };
  return { transport, observer: telemetry.observer(facts), facts, started: McpTelemetry.now() };
}
