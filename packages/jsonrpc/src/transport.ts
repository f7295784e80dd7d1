import type { JsonRpcId, JsonRpcMessage } from "./messages.js";

/** Static facts about a transport that change how the peer above it behaves. */
export interface TransportTraits {
  /**
   * True when each request has its own response stream (Streamable HTTP), so aborting that stream
   * *is* the cancellation and no `notifications/cancelled` is sent.
   */
  readonly perRequestStream: boolean;
  /**
   * True when the transport puts {@link SendOptions.headers} on the wire (HTTP). Absent or false: the
   * headers are ignored, so a caller may skip computing them.
   */
  readonly perRequestHeaders?: boolean;
}

/**
 * What a transport knows about one inbound message besides its content: the abort signal of its
 * own response stream (an HTTP client that disconnected), request headers, authorization claims.
 * Transports add their own fields; the peer passes the object through to handlers untouched.
 */
export interface MessageInfo {
  /** Aborted when the stream this message came on closes before it was answered. */
  signal?: AbortSignal;
  [key: string]: unknown;
}

/**
 * The single consumer of a transport, handed over by {@link Transport.start}. The transport calls
 * it in arrival order and never before `start` returned.
 */
export interface TransportSink {
  /** A decoded JSON value: a message, a batch array, or anything else a peer sent. Not yet validated. */
  onMessage(value: unknown, info?: MessageInfo): void;
  /**
   * Input that could not become a JSON value: a `FramingError` (over-cap or cut-off frame) or a
   * `SyntaxError` (malformed JSON). The connection lives on; the peer decides what to answer.
   */
  onInvalid(error: Error): void;
  /** The transport closed; `reason` is set when it was not a plain local close (a crash, a reset). */
  onClose(reason?: Error): void;
}

/** Options of one {@link Transport.send}. */
export interface SendOptions {
  /**
   * For a request: aborted when the caller gives up on it. A transport with a per-request stream
   * closes that stream, which tells the other side to cancel.
   */
  signal?: AbortSignal;
  /** For a notification or response: the inbound request it belongs to, so it takes that request's stream. */
  relatedRequestId?: JsonRpcId;
  /**
   * Transport-level headers of this one message, for transports that have them (HTTP sends them with the
   * message's POST, over its own); ignored by stdio and in-memory (see {@link TransportTraits.perRequestHeaders}).
   * The transport reads the object and does NOT keep or change it, so a caller may share one between sends.
   */
  headers?: Readonly<Record<string, string>>;
}

/**
 * A bidirectional channel of JSON-RPC messages. The transport frames and carries messages; it does
 * NOT correlate requests and responses, time out, or retry — the {@link Peer} above it does.
 */
export interface Transport {
  readonly traits: TransportTraits;
  /**
   * Starts reading and hands over the one consumer. Throws when called twice. Messages that arrive
   * before `start` are buffered by the transport, never dropped.
   */
  start(sink: TransportSink): Promise<void>;
  /**
   * Sends one message. Resolves when the message was handed to the underlying channel. Rejects with
   * `ConnectionClosedError` after close and with `TransportError` when the channel failed.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Closes the channel; idempotent. The sink's `onClose` is called once. */
  close(reason?: Error): Promise<void>;
}
