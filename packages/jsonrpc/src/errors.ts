/**
 * Standard JSON-RPC 2.0 error codes.
 * @see https://www.jsonrpc.org/specification#error_object
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** The error object of a JSON-RPC error response, as it travels on the wire. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error that crosses the wire: a numeric code, a message and optional data.
 *
 * Throw it from a request handler to answer with exactly this error; a request whose peer answered
 * with an error rejects with one. Local failures (timeouts, closed connections, broken framing) are
 * other classes and never serialize.
 */
export class JsonRpcError extends Error {
  override name = "JsonRpcError";
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  /** The wire form: `{ code, message, data? }`. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Builds an error from a wire error object, tolerating a peer that sent a malformed one. */
  static fromWire(error: unknown): JsonRpcError {
    if (typeof error === "object" && error !== null) {
      const e = error as Partial<JsonRpcErrorObject>;
      const code = typeof e.code === "number" && Number.isInteger(e.code) ? e.code : ErrorCode.InternalError;
      const message = typeof e.message === "string" ? e.message : "Unknown error";
      return new JsonRpcError(code, message, e.data);
    }
    return new JsonRpcError(ErrorCode.InternalError, "Malformed error object");
  }
}

/**
 * The connection ended (closed locally, by the peer, or by the transport) while something waited on it.
 * Local: never sent to the peer.
 */
export class ConnectionClosedError extends Error {
  override name = "ConnectionClosedError";
  constructor(message = "Connection closed", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A transport failed to carry a message (a write failed, an HTTP request failed). Local. */
export class TransportError extends Error {
  override name = "TransportError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The byte stream could not be cut into frames: a line over the size cap, or a stream that ended in
 * the middle of a line. Local; the framer goes on with the next line.
 */
export class FramingError extends Error {
  override name = "FramingError";
  /** Bytes of the offending frame seen so far. */
  readonly bytes: number;
  /** The first bytes of the frame, for recovering a request id; at most 256 bytes. */
  readonly head: string | undefined;
  constructor(message: string, bytes: number, head?: string) {
    super(message);
    this.bytes = bytes;
    this.head = head;
  }
}

/**
 * A request got no answer within its timeout. Local: the peer never sees this, and it is never
 * relabelled as a wire error code.
 */
export class TimeoutError extends Error {
  override name = "TimeoutError";
  /** The timeout, in milliseconds, that ran out. */
  readonly timeout: number;
  constructor(message: string, timeout: number) {
    super(message);
    this.timeout = timeout;
  }
}
