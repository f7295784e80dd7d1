import { createSseParser, type SseEvent } from "../sse-parser.js";
import type { NodeChunkStream } from "./node-body.js";

/** What a reader learned about its stream, kept across reconnections. */
export interface SseCursor {
  lastEventId: string;
  /** The server's `retry`, in milliseconds, if it sent one. */
  retry: number | undefined;
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
  const parser = createSseParser({
    onEvent(event) {
      cursor.lastEventId = event.id;
      onEvent(event);
    },
    onRetry(ms) {
      cursor.retry = ms;
    },
  });
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
    const parser = createSseParser({
      onEvent(event) {
        cursor.lastEventId = event.id;
        onEvent(event);
      },
      onRetry(ms) {
        cursor.retry = ms;
      },
    });
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
