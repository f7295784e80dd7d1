import type { PeerObserver, Transport, WireTap } from "@mcpkit/jsonrpc";
import { loadOpenTelemetry, type TelemetryOption } from "@mcpkit/protocol";

/*
 * The light half of the client's observability: whether a session is observed at all. Only when it is
 * (OpenTelemetry's API is there, or a wire trace is asked for) is ./telemetry.js imported, with the spans
 * code and the wire trace, so a client without either (a browser page, most apps) never loads them.
 */

/** Options of the client's observability (a part of {@link ClientOptions}). */
export interface ClientObservability {
  /**
   * OpenTelemetry: spans and metrics per the MCP semantic conventions, trace context in `params._meta`.
   * Default: on when `@opentelemetry/api` is installed (no SDK registered: no per-message work at all);
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

/** What the session tells its observation: the era and version in force, read when a message passes. */
interface SessionDescription {
  era(): string;
  version(): string;
}

/** How one session is observed: the transport to use (tapped when tracing) and its peer's observer. */
interface SessionObservation {
  readonly transport: Transport;
  readonly observer: PeerObserver | undefined;
  /** Records the session's duration when it ends (telemetry only). */
  readonly closed: ((reason: Error | undefined) => void) | undefined;
}

/** Prepares the observation of one session on `inner`. */
export type SessionObserve = (inner: Transport, describe: SessionDescription) => SessionObservation;

/** Whether `MCPKIT_DEBUG` asks for the wire trace (read without importing `node:process`). */
function wireTraceFromEnv(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const debug = env?.MCPKIT_DEBUG;
  return debug?.split(",").some((d) => d.trim() === "wire" || d.trim() === "*") === true;
}

const cache = new WeakMap<object, Promise<SessionObserve | undefined>>();

/**
 * How the sessions of a client with `options` are observed, resolved once per options object (at the first
 * connect): `undefined` when nothing observes them (telemetry off or its API not installed, no trace, no
 * tap); otherwise made by ./telemetry.js, imported then and only then.
 */
export function sessionObserver(options: ClientObservability): Promise<SessionObserve | undefined> {
  let resolved = cache.get(options);
  if (resolved === undefined) {
    resolved = resolveObserver(options);
    cache.set(options, resolved);
  }
  return resolved;
}

async function resolveObserver(options: ClientObservability): Promise<SessionObserve | undefined> {
  const trace = options.trace ?? (wireTraceFromEnv() ? true : undefined);
  const tapped = Boolean(trace) || options.onMessage !== undefined;
  const option = options.telemetry;
  const api = option === false ? undefined : (option?.api ?? (await loadOpenTelemetry()));
  if (api === undefined && !tapped) return undefined;
  const { makeSessionObserver } = await import("./telemetry.js");
  return makeSessionObserver(options, trace, api);
}
