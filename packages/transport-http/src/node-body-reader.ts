import type { IncomingMessage } from "node:http";
import type { ResponseBodyReader } from "./body-reader.js";
import { ResponseTooLargeError } from "./errors.js";
import { NodeResponse } from "./node-fetch.js";
import type { SseParser } from "./sse-parser.js";

/** One decoder for whole bodies: each use ends with a flushing `decode()`, so no state outlives it. */
const wholeDecoder = new TextDecoder();
const STREAM = { stream: true };

/**
 * The fast path for a body that already arrived whole (a small reply that came in one go, the usual
 * case): takes it out of the stream's buffer at once and parses it in one pass, with no data events or
 * flowing mode. Its events are dispatched when the stream closes, which follows within the same turn of
 * the event loop: by then `node:http` has released the socket to its agent, so that a request the events
 * trigger reuses it instead of opening another connection. An abort in between rejects with its reason.
 * Returns undefined, having read nothing, when the body is still arriving; the caller then streams it.
 */
function readWhole(res: IncomingMessage, parser: SseParser, signal: AbortSignal): Promise<void> | undefined {
  if (!res.complete || res.readableFlowing !== null || res.destroyed || signal.aborted) return undefined;
  let text = "";
  for (;;) {
    const chunk = res.read() as Buffer | string | null;
    if (chunk === null) break;
    // read() hands the whole buffer over at once; a string only if someone set an encoding.
    text += typeof chunk === "string" ? chunk : wholeDecoder.decode(chunk, STREAM);
  }
  text += wholeDecoder.decode();
  return new Promise<void>((resolve, reject) => {
    const onClose = () => {
      res.off("close", onClose);
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      try {
        parser.push(text);
        parser.end();
      } catch (error) {
        reject(error);
        return;
      }
      resolve();
    };
    res.on("close", onClose);
  });
}

/** The body as it arrives, chunk by chunk; aborting destroys the stream. */
function readStreaming(res: IncomingMessage, parser: SseParser, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error: unknown, ok: boolean) => {
      if (settled) return;
      settled = true;
      res.off("data", onData);
      res.off("end", onEnd);
      res.off("error", onError);
      res.off("close", onClose);
      signal.removeEventListener("abort", onAbort);
      if (ok) resolve();
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      try {
        parser.push(chunk);
      } catch (error) {
        res.destroy();
        settle(error, false);
      }
    };
    const onEnd = () => {
      parser.end();
      if (signal.aborted) settle(signal.reason, false);
      else settle(undefined, true);
    };
    const onError = (error: Error) => settle(signal.aborted ? signal.reason : error, false);
    // Closed without its end: the connection broke.
    const onClose = () =>
      settle(signal.aborted ? signal.reason : new Error("The event stream closed before its end"), false);
    const onAbort = () => {
      res.destroy();
      settle(signal.reason, false);
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    res.on("data", onData);
    res.on("end", onEnd);
    res.on("error", onError);
    res.on("close", onClose);
    // It may have broken while nobody listened (between the fetch resolving and this call).
    if (res.destroyed) onClose();
  });
}

/**
 * The {@link ResponseBodyReader} of `createNodeFetch`'s responses: pass it as the client transports'
 * `bodyReader` beside that fetch. An SSE reply is read from its `node:http` stream itself, no Web stream
 * per reply; one that already arrived whole (the usual small answer) is parsed in one pass and delivered
 * as its socket goes back to the pool. An unread body is released by destroying its stream. Responses
 * of any other fetch are declined (the transport reads them the standard way).
 */
export const nodeBodyReader: ResponseBodyReader = {
  readEventStream(response, parser, signal) {
    const light: unknown = response;
    if (!(light instanceof NodeResponse)) return undefined;
    const res = light.takeEventStream();
    if (res === null) return undefined;
    return readWhole(res, parser, signal) ?? readStreaming(res, parser, signal);
  },
  discard(response) {
    const light: unknown = response;
    return light instanceof NodeResponse && light.releaseBody();
  },
  readText(response, maxBytes) {
    const light: unknown = response;
    if (
      !(light instanceof NodeResponse) ||
      response.headers.get("content-type")?.includes("text/event-stream")
    )
      return undefined;
    // createNodeFetch buffered the body already (within its own maxBodyBytes): only its size is checked.
    return light.text().then((text) => {
      // UTF-8 takes at most 3 bytes per UTF-16 unit: only a text near the cap is measured.
      if (text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes)) {
        throw new ResponseTooLargeError("body", maxBytes, response.url);
      }
      return text;
    });
  },
};
