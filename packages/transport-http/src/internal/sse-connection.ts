import { unrefTimer, utf8 } from "./http-util.js";

/**
 * One open SSE HTTP response: a ReadableStream the handler writes events into. Cancelling the
 * stream (the client went away) calls `onGone` once; `close()` ends it from our side.
 */
export class SseConnection {
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private ended = false;
  private goneHandlers: Array<() => void> = [];

  constructor(keepAliveInterval: number) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        // The reader cancelled: the node adapter does this when the socket closed.
        this.finish();
      },
    });
    if (keepAliveInterval > 0 && Number.isFinite(keepAliveInterval)) {
      // Comment lines keep proxies from timing out an idle stream; clients ignore them.
      this.keepAlive = setInterval(() => this.writeRaw(": keep-alive\n\n"), keepAliveInterval);
      unrefTimer(this.keepAlive);
    }
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /** Registers a callback for the end of the connection from either side; runs at once if it ended. */
  onEnd(fn: () => void): void {
    if (this.ended) fn();
    else this.goneHandlers.push(fn);
  }

  /** Writes text as is; false when the connection is gone. */
  writeRaw(text: string): boolean {
    if (this.ended) return false;
    try {
      this.controller.enqueue(utf8(text));
      return true;
    } catch {
      this.finish();
      return false;
    }
  }

  /** Ends the response from the server side. Idempotent. */
  close(): void {
    if (this.ended) return;
    try {
      this.controller.close();
    } catch {
      // Already errored or cancelled by the reader.
    }
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    const handlers = this.goneHandlers;
    this.goneHandlers = [];
    for (const fn of handlers) fn();
  }
}

/** Response headers of every SSE reply. */
export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};
