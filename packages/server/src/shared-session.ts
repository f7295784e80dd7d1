import {
  allowsBatches,
  type ClientCapabilities,
  type Implementation,
  isLoggingLevel,
  type LoggingLevel,
} from "@mcpkit/protocol";
import type { Conn, Session } from "./connection.js";

/**
 * A legacy session whose state lives outside this process, so that several server instances behind a
 * load balancer serve the same session (`@mcpkit/transport-http` with a `SessionStore`, which hands it to
 * the app as `info.sharedSession`). It is given to `Server.connect(transport, { sharedSession })` with the
 * session's transport; the server reads the state from it when it connects and whenever it changes, and
 * writes every change back (initialize, `notifications/initialized`, `logging/setLevel`,
 * `resources/subscribe`/`unsubscribe`).
 *
 * The state is a flat map of string fields whose names and encoding belong to the server; the carrier
 * stores them as they are and does NOT interpret them.
 */
export interface SharedSession {
  /** The fields as last read from the shared store (refreshed before each message the transport delivers). */
  readonly fields: Readonly<Record<string, string>>;
  /**
   * The prefix of the ids of requests this process sends in the session (`PeerOptions.requestIdPrefix`),
   * so an answer POSTed to another instance can be routed back here.
   */
  readonly requestIdPrefix: string;
  /**
   * Registers the listener called when `fields` changed because another instance wrote them; it runs
   * before the next message of the session is delivered.
   */
  onChange(listener: () => void): void;
  /** Sets fields (a string) and removes them (`null`); resolves once the shared store has them. */
  write(changes: Record<string, string | null>): Promise<void>;
}

/** Options of `Server.connect`. */
export interface ConnectOptions {
  /**
   * The shared state of the legacy session `transport` carries (several instances); absent: an ordinary
   * one-process connection.
   */
  readonly sharedSession?: SharedSession | undefined;
}

// Field names of the encoding. Short: they are stored once per session and read on every adoption.
const VERSION = "pv";
const CAPABILITIES = "caps";
const CLIENT_INFO = "info";
const INITIALIZED = "init";
const LOG_LEVEL = "log";
const SUBSCRIPTION = "sub:";

/** The fields of a session freshly initialized (everything the server keeps about it). */
export function encodeSession(session: Session): Record<string, string> {
  const fields: Record<string, string> = {
    [VERSION]: session.protocolVersion,
    [CAPABILITIES]: JSON.stringify(session.clientCapabilities),
  };
  if (session.clientInfo !== undefined) fields[CLIENT_INFO] = JSON.stringify(session.clientInfo);
  if (session.initialized) fields[INITIALIZED] = "1";
  if (session.logLevel !== undefined) fields[LOG_LEVEL] = session.logLevel;
  for (const uri of session.subscriptions) fields[SUBSCRIPTION + uri] = "1";
  return fields;
}

/** The session the fields describe, or undefined before `initialize` stored it (or when they are unreadable). */
export function decodeSession(fields: Readonly<Record<string, string>>): Session | undefined {
  const protocolVersion = fields[VERSION];
  const capabilities = fields[CAPABILITIES];
  if (protocolVersion === undefined || capabilities === undefined) return undefined;
  try {
    const log = fields[LOG_LEVEL];
    const subscriptions = new Set<string>();
    for (const name in fields) {
      if (name.startsWith(SUBSCRIPTION)) subscriptions.add(name.slice(SUBSCRIPTION.length));
    }
    const info = fields[CLIENT_INFO];
    return {
      protocolVersion,
      clientCapabilities: JSON.parse(capabilities) as ClientCapabilities,
      clientInfo: info === undefined ? undefined : (JSON.parse(info) as Implementation),
      initialized: fields[INITIALIZED] === "1",
      logLevel: isLoggingLevel(log) ? (log as LoggingLevel) : undefined,
      subscriptions,
    };
  } catch {
    return undefined;
  }
}

/** The change a `logging/setLevel` makes. */
export function logLevelChange(level: LoggingLevel): Record<string, string | null> {
  return { [LOG_LEVEL]: level };
}

/** The change `notifications/initialized` makes. */
export const INITIALIZED_CHANGE: Readonly<Record<string, string | null>> = Object.freeze({
  [INITIALIZED]: "1",
});

/** The change a `resources/subscribe` (`on`) or `resources/unsubscribe` makes. */
export function subscriptionChange(uri: string, on: boolean): Record<string, string | null> {
  return { [SUBSCRIPTION + uri]: on ? "1" : null };
}

/**
 * Takes up the shared session given to `connect`: the connection's legacy state is read from it now (a
 * session another instance initialized) and again whenever another instance changes it.
 */
export function adoptSharedSession(conn: Conn, shared: SharedSession): void {
  conn.shared = shared;
  const restore = () => {
    const session = decodeSession(shared.fields);
    if (session === undefined) return;
    conn.session = session;
    conn.era = "legacy";
    conn.peer.batches = allowsBatches(session.protocolVersion);
  };
  restore();
  shared.onChange(restore);
}
