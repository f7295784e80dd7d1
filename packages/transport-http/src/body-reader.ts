import type { SseParser } from "./sse-parser.js";

/**
 * How the client transports take the bodies of their responses, when the standard `Response` API is not
 * the fastest way: a runtime adapter reads the responses of its own fetch directly. `nodeBodyReader` from
 * `@mcpkit/transport-http/node` reads those of `createNodeFetch` from their `node:http` stream, with no
 * Web stream in between. Without one (the default), bodies are read through `response.body`.
 *
 * Each method may decline a response it did not make (undefined, false): the transport then uses the
 * standard API for it, so a reader stays correct behind fetch wrappers that return other responses.
 */
export interface ResponseBodyReader {
  /**
   * Feeds the body of a `text/event-stream` response to `parser`, in order, until it ends. The promise
   * resolves when the body ended, and rejects when it broke, or with `signal.reason` when `signal` aborted
   * (which must also release the body). Events may be dispatched at any time before it settles. Returns
   * undefined, having read nothing, to decline. `signal` may be a lighter object than an `AbortSignal`
   * (with `createNodeFetch`): use only `aborted`, `reason` and `add`/`removeEventListener("abort")`.
   */
  readEventStream(response: Response, parser: SseParser, signal: AbortSignal): Promise<void> | undefined;
  /** Releases the body of a response nobody will read, freeing its connection. False declines. */
  discard(response: Response): boolean;
}

/** Reads an SSE body with `reader` or, when it has none or declines, through `response.body`. */
export function readEventStream(
  response: Response,
  parser: SseParser,
  signal: AbortSignal,
  reader: ResponseBodyReader | undefined,
): Promise<void> {
  const read = reader?.readEventStream(response, parser, signal);
  if (read !== undefined) return read;
  const body = response.body;
  return body === null ? Promise.resolve() : readWebStream(body, parser, signal);
}

/** Releases an unread body with `reader` or, when it has none or declines, by cancelling `response.body`. */
export function discardBody(response: Response, reader: ResponseBodyReader | undefined): void {
  if (reader?.discard(response)) return;
  response.body?.cancel().catch(() => {});
}

/** The standard reader: a Web stream's chunks into the parser. */
async function readWebStream(
  body: ReadableStream<Uint8Array>,
  parser: SseParser,
  signal: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  // A body that is not a socket (an in-process handler) does not end when the fetch is aborted.
  const onAbort = () => {
    reader.cancel(signal.reason).catch(() => {});
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.end();
    if (signal.aborted) throw signal.reason;
  } finally {
    signal.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}
