import type { JsonRpcMessage } from "@mcpkit/jsonrpc";

/** A legacy session as the shared store keeps it. */
export interface SessionRecord {
  /** The protocol version the session was opened with (its `initialize`). */
  readonly protocolVersion: string;
  /**
   * The identity that opened the session, as given to {@link SessionStore.create}; the handler answers a
   * request of any other identity 404. Absent (a store that keeps none) means `"anonymous"`.
   */
  readonly owner?: string;
  /** The app's fields (the server's legacy state): the handler stores them and does NOT read them. */
  readonly fields: Readonly<Record<string, string>>;
  /** Grows by one with every {@link SessionStore.update}: a replica whose revision differs is stale. */
  readonly revision: number;
}

/** What a {@link SessionStore} hands to the instance that must act on it. */
export type SessionSignal =
  /** A message from the client for the session's replica here: an answer routed by its id, a cancel. */
  | { readonly kind: "inbound"; readonly sessionId: string; readonly message: JsonRpcMessage }
  /** A message for the client that goes out on the session's GET stream, which this instance holds. */
  | { readonly kind: "outbound"; readonly sessionId: string; readonly message: JsonRpcMessage }
  /**
   * The session's fields changed on another instance (sent to the instance holding the GET stream, whose
   * fan-out notifications depend on them): `changes` made the record's revision `revision`.
   */
  | {
      readonly kind: "changed";
      readonly sessionId: string;
      readonly revision: number;
      readonly changes: Readonly<Record<string, string | null>>;
    }
  /** The session ended (DELETE on some instance): every replica ends. */
  | { readonly kind: "ended"; readonly sessionId: string };

/**
 * Legacy Streamable HTTP sessions shared by several instances of a server behind a load balancer that
 * does not stick a client to one instance (see `StreamableHttpHandlerOptions.sessionStore`). It keeps
 * each session's record, with an idle TTL that every instance's activity restarts, and carries
 * {@link SessionSignal}s between instances: every instance is a peer, none is in charge.
 *
 * Contract the handler relies on:
 * - `instanceId` is unique among the instances sharing the store (a random id per process, never a host
 *   name) and contains no `~`.
 * - Every method either does what it says or rejects (Redis down: a clear error, at once, never a hang);
 *   the handler answers such a request with 500 and the session lives on.
 * - Signals sent to an instance reach it in the order they were sent; one for an instance that is gone is
 *   dropped (`sendTo` resolves `false`), never queued for a later one.
 *
 * It does NOT store SSE events (that is the {@link EventStore}) and does NOT fan out server-wide
 * notifications (list changes, resource updates), which every instance raises itself.
 */
export interface SessionStore {
  /** This instance's id among those sharing the store. */
  readonly instanceId: string;
  /** Sets the one receiver of the signals addressed to this instance (the handler calls it once). */
  listen(receiver: (signal: SessionSignal) => void): void;
  /**
   * Stores a new session's record, alive for `ttlMs` unless touched, bound to `owner` (the identity that
   * opened it, an opaque string; `"anonymous"` when omitted), which {@link touch} must return as is.
   */
  create(sessionId: string, protocolVersion: string, ttlMs: number, owner?: string): Promise<void>;
  /**
   * The session's record, its TTL restarted; `undefined` when it ended or expired. Called for every
   * request of the session, on whichever instance: it is the only round trip such a request costs.
   */
  touch(sessionId: string, ttlMs: number): Promise<SessionRecord | undefined>;
  /**
   * Sets (a string) and removes (`null`) app fields of a live session and raises its revision; the
   * instance holding the GET stream, when it is another one, gets a `changed` signal. Resolves the new
   * revision, or `undefined` when the session no longer exists (nothing is written).
   */
  update(sessionId: string, changes: Readonly<Record<string, string | null>>): Promise<number | undefined>;
  /** Deletes the record and sends `ended` to every instance (this one included). */
  end(sessionId: string): Promise<void>;
  /**
   * Records that this instance now holds the session's GET stream (a later claim elsewhere wins) and
   * returns the messages kept for the stream while nobody held it, oldest first (and forgets them).
   */
  claimStream(sessionId: string): Promise<JsonRpcMessage[]>;
  /** Forgets that this instance holds the GET stream (when it still does). */
  releaseStream(sessionId: string): Promise<void>;
  /**
   * Sends a message to the session's GET stream: an `outbound` signal to the instance holding it, or,
   * when none does (or it is gone), keeps the message (bounded, oldest dropped) for the next claim.
   */
  toStream(sessionId: string, message: JsonRpcMessage): Promise<void>;
  /** Sends a signal to one instance; `false` when no such instance listens. */
  sendTo(instanceId: string, signal: SessionSignal): Promise<boolean>;
  /** Sends a signal to every instance, this one included. */
  broadcast(signal: SessionSignal): Promise<void>;
}
