import type { Transport } from "@mcpkit/jsonrpc";
import { formatWireEvent, tapTransport } from "@mcpkit/jsonrpc/wire-trace";
import type { ConnectionFacts, OpenTelemetryApi, TelemetryAttributes } from "@mcpkit/protocol";
import { McpTelemetry } from "@mcpkit/protocol/telemetry";
import type { ClientObservability, SessionObserve } from "./observability.js";

/*
 * The client's one seam to OpenTelemetry and to the wire trace, imported by ./observability.js only when
 * a session is observed (never by the client's static graph: a bundle without it stays small).
 */

/** `network.*` and `server.*` attributes of a transport, read structurally (HTTP: tcp; else a pipe). */
function networkOf(transport: Transport): TelemetryAttributes {
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

/**
 * The observation of a client's sessions: the wire trace around the transport when `trace` or
 * `onMessage` asks for it, and the OpenTelemetry observer of the peer when `api` is given (none while no
 * SDK is registered: asked again for each session).
 */
export function makeSessionObserver(
  options: ClientObservability,
  trace: ClientObservability["trace"],
  api: OpenTelemetryApi | undefined,
): SessionObserve {
  const option = options.telemetry === false ? undefined : options.telemetry;
  const telemetry =
    api === undefined ? undefined : new McpTelemetry(api, "client", "@mcpkit/client", "0.1.0", option);
  const onMessage = options.onMessage;
  const write =
    typeof trace === "function" ? trace : trace ? (line: string) => console.error(line) : undefined;
  return (inner, describe) => {
    let transport = inner;
    if (write !== undefined || onMessage !== undefined) {
      const http = inner.traits.perRequestHeaders === true || inner.traits.perRequestStream;
      const label = `client ${http ? "http" : "stdio"}`;
      transport = tapTransport(inner, (event) => {
        onMessage?.(event);
        if (write !== undefined) {
          write(formatWireEvent(event, { transport: label, era: `${describe.era()} ${describe.version()}` }));
        }
      });
    }
    if (telemetry === undefined || !telemetry.active) {
      return { transport, observer: undefined, closed: undefined };
    }
    const facts: ConnectionFacts = {
      network: networkOf(inner),
      protocolVersion: describe.version,
      sessionId: () => (inner as { sessionId?: string }).sessionId,
    };
    const started = McpTelemetry.now();
    return {
      transport,
      observer: telemetry.observer(facts),
      closed: (reason) => telemetry.endSession(started, facts, reason),
    };
  };
}
