/**
 * The limits a Streamable HTTP server enforces, with the defaults it uses when none is given. Each one,
 * when reached, is answered with its own status (or a closed stream) and reported once through
 * `onLimit` (a `console.warn` line naming the limit by default); the process and the other clients are
 * unaffected.
 */
export type HttpLimitName =
  | "maxBodyBytes"
  | "maxSessions"
  | "maxConcurrentRequests"
  | "maxConcurrentRequestsPerSession"
  | "maxSseBufferBytes"
  | "maxHeaderSize"
  | "headersTimeout"
  | "requestTimeout"
  | "handshakeTimeout";

/** What `onLimit` is told when a request or stream hit a limit. */
export interface HttpLimitEvent {
  /** The option that set the limit. */
  limit: HttpLimitName;
  /** Its value (bytes, a count, or milliseconds). */
  value: number;
  /** The HTTP status the request got; undefined when a stream was closed instead. */
  status?: number;
  /** The legacy session concerned, when there is one. */
  sessionId?: string;
  /** One line saying what happened, for a log. */
  message: string;
}

/** Default most requests in flight at once on one server (both eras); further ones get 503. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 1000;
/** Default most requests in flight at once in one legacy session; further ones get 429. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION = 100;
/** Default most bytes an SSE stream may hold unread by a slow client before it is closed: 4 MiB. */
export const DEFAULT_MAX_SSE_BUFFER_BYTES = 4 * 1024 * 1024;
/**
 * Default time a legacy session may stay after its `initialize` without the client sending anything
 * more (`notifications/initialized`, a request, a GET): 30 s. A real client sends the notification at
 * once; a session left in the middle of its handshake is someone else's probe or a crashed client.
 */
export const DEFAULT_HANDSHAKE_TIMEOUT = 30_000;
/**
 * Default most bytes a client transport takes in one HTTP response body or one SSE event: 16 MiB, the
 * stdio frame cap. Past it the stream is cut and the call fails with `ResponseTooLargeError`.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Seconds a client is told to wait (`Retry-After`) after a 429 or 503 for load. */
export const RETRY_AFTER_SECONDS = 1;

/** The default `onLimit`: one warning line naming the limit. */
export function logLimit(event: HttpLimitEvent): void {
  console.warn(`mcpkit: limit ${event.limit}=${event.value} reached: ${event.message}`);
}
