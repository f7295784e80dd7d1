/** What {@link InboundRequest.readBody} answers for a body over the cap. */
export const TOO_LARGE: unique symbol = Symbol("too large");

/**
 * One HTTP request as the handler's core reads it. The Web entry point wraps a `Request`; the node
 * adapter reads `IncomingMessage` directly and builds a `Request` (and `Headers`) only when the app
 * asks for one (`info.httpRequest`, `authenticate`, ...).
 */
export interface InboundRequest {
  readonly method: string;
  /** A header's value (duplicates joined with `, `, as `Headers.get` does); `name` is lower-case. */
  header(name: string): string | null;
  /** The authority for the Host check: the Host header, else the URL's host. */
  host(): string;
  /**
   * The body as text (UTF-8, BOM dropped), or TOO_LARGE when it exceeds `maxBytes`; synchronous when the
   * body was read already (the node adapter reads it before the handler runs).
   */
  readBody(maxBytes: number): string | typeof TOO_LARGE | Promise<string | typeof TOO_LARGE>;
  /** Calls `fn` once when the client goes away before the reply is complete (at once if it already did). */
  onGone(fn: () => void): void;
  /** The request as a Web `Request` (built on first use by the node adapter). */
  readonly request: Request;
  /** Its headers as Web `Headers` (built on first use by the node adapter). */
  readonly headers: Headers;
  /** What `authenticate` verified for this request, once it ran. */
  identity?: { value: unknown };
}
