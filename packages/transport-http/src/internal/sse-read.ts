import { createSseParser, type SseEvent } from "../sse-parser.js";

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
