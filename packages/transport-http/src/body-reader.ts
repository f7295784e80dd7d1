import { ResponseTooLargeError } from "./errors.js";
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
  /**
   * Reads a whole (non-SSE) body as text, rejecting with `ResponseTooLargeError` when it has more than
   * `maxBytes`. Returns undefined, having read nothing, to decline. Optional.
   */
  readText?(response: Response, maxBytes: number): Promise<string> | undefined;
}

/**
 * Reads a whole body as UTF-8 text with `reader` or, when it has none or declines, through
 * `response.body`, holding at most `maxBytes`: a declared `content-length` past it is refused before
 * reading, and a body that grows past it is cancelled. Either rejects with `ResponseTooLargeError`.
 */
export function readBoundedText(
  response: Response,
  maxBytes: number,
  reader: ResponseBodyReader | undefined,
  url?: URL | string,
): Promise<string> {
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    discardBody(response, reader);
    return Promise.reject(new ResponseTooLargeError("body", maxBytes, url));
  }
  const read = reader?.readText?.(response, maxBytes);
  if (read !== undefined) return read;
  const body = response.body;
  return body === null ? Promise.resolve("") : readWebText(body, maxBytes, url);
}

/** A Web stream's bytes as text, cancelled once they pass `maxBytes`. */
async function readWebText(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  url: URL | string | undefined,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        reader.cancel().catch(() => {});
        throw new ResponseTooLargeError("body", maxBytes, url);
      }
      text += decoder.decode(value, STREAM);
    }
  } finally {
    reader.releaseLock();
  }
  text += decoder.decode();
  // As Response.text() does: a leading BOM is not part of the text.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const STREAM = { stream: true };

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
      try {
        parser.push(value);
      } catch (error) {
        // The parser refused the stream (an event past its cap): nothing more of it is read.
        reader.cancel(error).catch(() => {});
        throw error;
      }
    }
    parser.end();
    if (signal.aborted) throw signal.reason;
  } finally {
    signal.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}
