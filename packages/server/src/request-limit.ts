import { McpError, McpErrorCode } from "@mcpkit/protocol";
import type { ServerLogger } from "./types.js";

/**
 * Default most requests from the client in flight at once on one connection: 100, the same as the HTTP
 * handler's `maxConcurrentRequestsPerSession` (an agent host rarely has more than a few dozen calls
 * running; a client with hundreds in flight is misbehaving or attacking).
 */
export const DEFAULT_MAX_CONCURRENT_REQUESTS_PER_CONNECTION = 100;

/** The option name, as the error data and the log line give it. */
const LIMIT = "maxConcurrentRequestsPerConnection";

/**
 * Checks `ServerOptions.maxConcurrentRequestsPerConnection`.
 * @throws RangeError when it is not a whole number of at least 1.
 */
export function requestLimitOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CONCURRENT_REQUESTS_PER_CONNECTION;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${LIMIT} must be a whole number of at least 1, got ${String(value)}`);
  }
  return value;
}

/**
 * The count of one connection's requests in flight (from arrival until the handler settled, whether or
 * not the client cancelled). A request over the limit is refused at once with a JSON-RPC error, so a
 * transport without HTTP statuses (stdio, in-memory) has an answer too; the connection and its other
 * requests go on. The logger is told once per burst: when the limit is reached, and again only after
 * the count fell to half of it (a client hammering at the limit does not flood the log).
 */
export class RequestLimit {
  private inFlight = 0;
  private reported = false;

  constructor(
    private readonly max: number,
    private readonly logger: ServerLogger,
  ) {}

  /**
   * Takes a slot for one request; the caller must {@link release} it when the request settles.
   * @returns undefined when admitted, else the error to answer with (-32600, `data: { limit, value }`;
   * the HTTP handler, where it sees one, maps -32600 to 400).
   */
  admit(): McpError | undefined {
    if (this.inFlight < this.max) {
      this.inFlight++;
      return undefined;
    }
    if (!this.reported) {
      this.reported = true;
      this.logger.error(
        `limit ${LIMIT}=${this.max} reached: requests over it are refused with -32600 until one finishes`,
      );
    }
    return new McpError(
      McpErrorCode.InvalidRequest,
      `Too many requests: more than ${this.max} in flight on this connection; retry later`,
      { limit: LIMIT, value: this.max },
    );
  }

  /** Gives back the slot of a request that settled. */
  release(): void {
    this.inFlight--;
    if (this.reported && this.inFlight <= this.max / 2) this.reported = false;
  }
}
