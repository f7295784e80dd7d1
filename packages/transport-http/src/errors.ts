import { type JsonRpcErrorObject, TransportError } from "@mcpkit/jsonrpc";

/**
 * The server answered a POST with an HTTP error status whose body is NOT a JSON-RPC error response
 * for the message (an empty body, HTML, plain text, or a JSON-RPC error for a notification). Local:
 * it never crosses the wire. A request whose send fails this way rejects with it (the peer passes
 * a `TransportError` through unchanged).
 *
 * A 4xx/5xx whose body IS a JSON-RPC error response is not an `HttpError`: the client transport
 * delivers that body as the request's error response, so the request rejects with a
 * `JsonRpcError` carrying the server's code. A dual-era client tells the two apart this way
 * (SPEC.md §3.4: a recognized modern error means "modern"; an empty or unrecognized 400 means
 * "fall back").
 */
export class HttpError extends TransportError {
  override name = "HttpError";
  /** The HTTP status code. */
  readonly status: number;
  readonly statusText: string;
  /** The response body as text (at most 64 KiB of it). */
  readonly body: string;
  /** The JSON-RPC error object found in the body, if any (only set where it was not delivered as a response). */
  readonly error: JsonRpcErrorObject | undefined;

  /** The URL that answered, when known (the message names it: `HTTP 404 Not Found from <url>`). */
  readonly url: string | undefined;

  constructor(
    status: number,
    statusText: string,
    body: string,
    error?: JsonRpcErrorObject,
    url?: URL | string,
  ) {
    super(
      `HTTP ${status}${statusText ? ` ${statusText}` : ""}${url === undefined ? "" : ` from ${String(url)}`}`,
    );
    this.url = url === undefined ? undefined : String(url);
    this.status = status;
    this.statusText = statusText;
    this.body = body;
    this.error = error;
  }
}

/**
 * The server answered 404 to a request that carried a legacy `Mcp-Session-Id`: the session ended
 * (deleted, expired, or the server restarted). The transport forgets the session id, so the next
 * `initialize` starts a new session on the same transport; the client should re-initialize once.
 * Local; never crosses the wire.
 * @see SPEC.md §4.8 Sessions
 */
export class SessionExpiredError extends TransportError {
  override name = "SessionExpiredError";
  /** The session id the server no longer knows. */
  readonly sessionId: string;

  constructor(sessionId: string) {
    super(`The HTTP session ${sessionId} has expired or was terminated by the server`);
    this.sessionId = sessionId;
  }
}

/**
 * A response body or one SSE event passed the client's cap (`maxResponseBytes`, 16 MiB by default): the
 * transport cut the stream instead of holding more, and the call fails with this error. Local; never
 * crosses the wire. A stream cut this way is not resumed (the same event would come again).
 */
export class ResponseTooLargeError extends TransportError {
  override name = "ResponseTooLargeError";
  /** What passed the cap: a whole response body, or one SSE event. */
  readonly part: "body" | "event";
  /** The cap that was passed, in bytes (an SSE event: in decoded characters, see `maxResponseBytes`). */
  readonly limit: number;
  /** The URL that answered, when known. */
  readonly url: string | undefined;

  constructor(part: "body" | "event", limit: number, url?: URL | string) {
    const what = part === "body" ? "The response body" : "An SSE event";
    super(
      `${what}${url === undefined ? "" : ` from ${String(url)}`} passed the cap of ${limit} bytes (maxResponseBytes); the stream was cut`,
    );
    this.part = part;
    this.limit = limit;
    this.url = url === undefined ? undefined : String(url);
  }
}
