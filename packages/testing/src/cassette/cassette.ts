import type { JsonRpcMessage } from "@mcpkit/jsonrpc";

/** The `format` field every cassette carries. */
export const CASSETTE_FORMAT = "mcpkit-cassette";

/**
 * The format version this package writes and the newest it reads. A cassette of a newer version is
 * refused (its meaning may have changed), never read half-way.
 */
export const CASSETTE_VERSION = 1;

/** Which side sent a recorded message: the client (host) or the server. */
export type CassetteSide = "client" | "server";

/**
 * One message of a recorded session, in the order it crossed the transport. A request, its result or
 * error, a notification, a server-to-client request (legacy) and the client's answer to it are all
 * events; MRTR rounds are the `input_required` results and their retries, with `requestState` kept
 * verbatim (opaque); a `subscriptions/listen` stream is its request, the acknowledgement and the
 * notifications that carry its subscription id; a task is its `tools/call`, the `task` result and the
 * `tasks/*` polls.
 */
export interface CassetteEvent {
  /** Who sent it. */
  from: CassetteSide;
  /** The message as it crossed the wire, after redaction (see {@link Cassette.redacted}). */
  message: JsonRpcMessage;
  /** Milliseconds since the recording started; present when timings were recorded. */
  ms?: number;
}

/** The protocol era of a session: `legacy` (an `initialize` handshake) or `modern` (2026-07-28, stateless). */
export type CassetteEra = "legacy" | "modern";

/**
 * One recorded MCP session of either era: the JSON document `mcpkit record` writes and `replayServer`,
 * `verifyCassette` and `diffSurfaces` read. The JSON Schema is `@mcpkit/testing/cassette.schema.json`.
 */
export interface Cassette {
  format: typeof CASSETTE_FORMAT;
  version: number;
  /** The era, read from the first request (`initialize` ⇒ legacy, `_meta` protocol version ⇒ modern). */
  era: CassetteEra;
  /** The protocol version the session spoke, when known. */
  protocolVersion?: string;
  /** When the recording started (ISO 8601). */
  recordedAt?: string;
  /** What was recorded: a command line or a URL (secrets in it redacted). */
  target?: string;
  /** The names of keys whose values were replaced by `"[REDACTED]"` (beside the default list). */
  redacted: string[];
  events: CassetteEvent[];
}

const MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/**
 * The era and protocol version of a list of events, read from the first client request: `initialize`
 * (its `protocolVersion`) is legacy; a request carrying `_meta["io.modelcontextprotocol/protocolVersion"]`
 * is modern. Without either the session is called legacy.
 */
export function eraOf(events: readonly CassetteEvent[]): { era: CassetteEra; protocolVersion?: string } {
  for (const event of events) {
    if (event.from !== "client") continue;
    const message = event.message as { method?: unknown; params?: Record<string, unknown> };
    if (typeof message.method !== "string") continue;
    if (message.method === "initialize") {
      const version = message.params?.protocolVersion;
      return typeof version === "string" ? { era: "legacy", protocolVersion: version } : { era: "legacy" };
    }
    const meta = message.params?._meta as Record<string, unknown> | undefined;
    const version = meta?.[MODERN_VERSION_KEY];
    if (typeof version === "string") return { era: "modern", protocolVersion: version };
  }
  return { era: "legacy" };
}
