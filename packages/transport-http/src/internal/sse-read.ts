import { createSseParser, type SseEvent } from "../sse-parser.js";
import type { NodeChunkStream } from "./node-body.js";

/** What a reader learned about its stream, kept across reconnections. */
export interface SseCursor {
  lastEventId: string;
  /** The server's `retry`, in milliseconds, if it sent one. */
  retry: number | undefined;
}

/** An SSE parser that keeps `cursor` (last event id, retry) up to date as events pass to `onEvent`. */
function cursorParser(cursor: SseCursor, onEvent: (event: SseEvent) => void) {
  return createSseParser({
    onEvent(event) {
      cursor.lastEventId = event.id;
      onEvent(event);
    },
    onRetry(ms) {
      cursor.retry = ms;
    },
  });
}

/**
 * Reads an SSE body to its end, calling `onEvent` per event (both client transports use this).
 * Resolves when the stream ends or `stop()` returns true after an event; rejects when reading fails
 * (a dropped connection, an abort).
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  onEvent: (event: SseEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const parser = cursorParser(cursor, onEvent);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // A body that is not a socket (an in-process handler) does not end when the fetch is aborted.
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
      // An id-only block (a priming event) dispatches nothing but still moves the cursor.
      if (parser.lastEventId !== "") cursor.lastEventId = parser.lastEventId;
    }
    parser.push(decoder.decode());
    signal?.throwIfAborted();
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}

/**
 * {@link readSse} over a `node:http` response stream (from `createNodeFetch`): the same events and
 * outcomes without a Web stream in between. Aborting destroys the stream.
 */
export function readSseNode(
  body: NodeChunkStream,
  cursor: SseCursor,
  onEvent: (event: SseEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const parser = cursorParser(cursor, onEvent);
    const decoder = new TextDecoder();
    let settled = false;
    const settle = (error: unknown, ok: boolean) => {
      if (settled) return;
      settled = true;
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
      body.off("close", onClose);
      signal?.removeEventListener("abort", onAbort);
      if (ok) resolve();
      else reject(error);
    };
    const onData = (chunk: Uint8Array) => {
      try {
        parser.push(decoder.decode(chunk, { stream: true }));
        // An id-only block (a priming event) dispatches nothing but still moves the cursor.
        if (parser.lastEventId !== "") cursor.lastEventId = parser.lastEventId;
      } catch (error) {
        body.destroy();
        settle(error, false);
      }
    };
    const onEnd = () => {
      try {
        parser.push(decoder.decode());
      } catch (error) {
        settle(error, false);
        return;
      }
      if (signal?.aborted) settle(signal.reason, false);
      else settle(undefined, true);
    };
    const onError = (error: Error) => settle(signal?.aborted ? signal.reason : error, false);
    // Closed without its end: the connection broke.
    const onClose = () =>
      settle(signal?.aborted ? signal.reason : new Error("The event stream closed before its end"), false);
    const onAbort = () => {
      body.destroy();
      settle(signal!.reason, false);
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    body.on("data", onData);
    body.on("end", onEnd);
    body.on("error", onError);
    body.on("close", onClose);
    // It may have broken while nobody listened (between the fetch resolving and this call).
    if (body.destroyed) onClose();
  });
}

/** One decoder for whole bodies: each use ends with a flushing `decode()`, so no state outlives it. */
const wholeDecoder = new TextDecoder();
const STREAMING = { stream: true };

/** The part of a `node:http` response that tells whether its whole body is already buffered. */
interface BufferedNodeStream {
  /** `IncomingMessage.complete`: the whole message (headers, body, end) was received. */
  complete?: unknown;
  readableFlowing?: unknown;
  read?: () => Uint8Array | string | null;
}

/**
 * The fast path of {@link readSseNode}: when the `node:http` response already received its whole body
 * (a small reply that came in one go, the usual case), takes it out of the stream's buffer at once and
 * parses it in one go: no decoder, parser object, data events or flowing mode. Its events are dispatched
 * when the stream closes, which follows within the same turn of the event loop: by then `node:http` has
 * released the socket to its agent, so that a request the events trigger reuses it instead of opening
 * another connection. Same events, cursor and outcomes as the streaming path (an abort in between
 * rejects with its reason). Returns undefined, having read nothing, when the body is still arriving (or
 * was already read some other way); the caller then streams it.
 */
export function readBufferedSse(
  body: NodeChunkStream,
  cursor: SseCursor,
  onEvent: (event: SseEvent) => void,
  signal?: AbortSignal,
): Promise<void> | undefined {
  const node = body as unknown as BufferedNodeStream;
  if (node.complete !== true || node.readableFlowing !== null || typeof node.read !== "function") {
    return undefined;
  }
  if (body.destroyed || signal?.aborted) return undefined;
  let text = "";
  for (;;) {
    const chunk = node.read();
    if (chunk === null) break;
    // read() hands the whole buffer over at once; a string only if someone set an encoding.
    text += typeof chunk === "string" ? chunk : wholeDecoder.decode(chunk, STREAMING);
  }
  text += wholeDecoder.decode();
  return new Promise<void>((resolve, reject) => {
    const onClose = () => {
      body.off("close", onClose);
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      try {
        parseWholeSse(text, cursor, onEvent);
      } catch (error) {
        reject(error);
        return;
      }
      resolve();
    };
    body.on("close", onClose);
  });
}

/**
 * Parses a complete SSE text as the incremental parser does (see createSseParser): lines end in CRLF,
 * LF or CR; an unterminated last line and a block without its blank line dispatch nothing; `id:` lines
 * move the cursor even in blocks that dispatch nothing.
 */
export function parseWholeSse(text: string, cursor: SseCursor, onEvent: (event: SseEvent) => void): void {
  let lastEventId = "";
  let data = "";
  let hasData = false;
  let type = "";
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    if (i === start) {
      // A blank line: dispatch.
      if (hasData) {
        const event: SseEvent = { type: type === "" ? "message" : type, data, id: lastEventId };
        data = "";
        hasData = false;
        type = "";
        cursor.lastEventId = lastEventId;
        onEvent(event);
      } else {
        type = "";
      }
    } else if (text.charCodeAt(start) !== 58) {
      const colon = text.indexOf(":", start);
      let field: string;
      let value: string;
      if (colon < 0 || colon > i) {
        field = text.slice(start, i);
        value = "";
      } else {
        field = text.slice(start, colon);
        value = text.slice(text.charCodeAt(colon + 1) === 32 && colon + 1 < i ? colon + 2 : colon + 1, i);
      }
      switch (field) {
        case "data":
          data = hasData ? `${data}\n${value}` : value;
          hasData = true;
          break;
        case "event":
          type = value;
          break;
        case "id":
          if (!value.includes("\0")) lastEventId = value;
          break;
        case "retry":
          if (/^[0-9]+$/.test(value)) cursor.retry = Number(value);
          break;
      }
    }
    if (c === 13 && i + 1 < n && text.charCodeAt(i + 1) === 10) i++;
    start = i + 1;
  }
  if (lastEventId !== "") cursor.lastEventId = lastEventId;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
