import { unrefTimer, utf8 } from "./http-util.js";

/** Where a directly attached SSE connection writes (the node adapter's ServerResponse). */
export interface SseSink {
  /** Writes text to the client (buffered by the runtime when the socket is busy). */
  write(text: string): void;
  /** Ends the response. */
  end(): void;
  /** Bytes written but not yet taken by the client (the socket's unsent buffer). */
  buffered?(): number;
  /** Drops the response and what it holds unsent (a client that stopped reading). */
  destroy?(): void;
}

/** The bound on what a connection holds for a client that does not read, and whom to tell. */
export interface SseBufferLimit {
  maxBytes: number;
  /** Called once when the connection was closed for holding more than `maxBytes` unread. */
  onOverflow(held: number): void;
}

// Queued bytes, so `desiredSize` says how much a Web reader left unread.
const BYTE_STRATEGY: QueuingStrategy<Uint8Array> = { highWaterMark: 0, size: (chunk) => chunk.byteLength };

/**
 * One open SSE HTTP response the handler writes events into. It is read one of two ways, chosen by
 * whoever serves it: as a Web `ReadableStream` (`stream`, for the Web-standard `fetch` entry point) or
 * attached to a sink that writes to the socket directly (`attach`, the node adapter's fast path). Text
 * written before either is kept and goes out first. The client going away (the stream cancelled, or
 * `gone()`) and `close()` both end it once, calling the `onEnd` callbacks.
 */
export class SseConnection {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readable: ReadableStream<Uint8Array> | undefined;
  private sink: SseSink | undefined;
  private pending: string[] | undefined = [];
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private ended = false;
  /** close() ran before a reader attached: the reader gets what was written, then the end. */
  private closedEarly = false;
  private goneHandlers: Array<() => void> = [];

  constructor(
    keepAliveInterval: number,
    private readonly limit?: SseBufferLimit,
  ) {
    if (keepAliveInterval > 0 && Number.isFinite(keepAliveInterval)) {
      // Comment lines keep proxies from timing out an idle stream; clients ignore them.
      this.keepAlive = setInterval(() => this.writeRaw(": keep-alive\n\n"), keepAliveInterval);
      unrefTimer(this.keepAlive);
    }
  }

  /** The connection as a Web stream (created on first use; exclusive with `attach`). */
  get stream(): ReadableStream<Uint8Array> {
    if (this.readable) return this.readable;
    if (this.sink) throw new Error("SseConnection: already attached to a sink");
    this.readable = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          const pending = this.pending ?? [];
          this.pending = undefined;
          for (const text of pending) controller.enqueue(utf8(text));
          if (this.closedEarly) controller.close();
        },
        cancel: () => {
          // The reader cancelled: the node adapter does this when the socket closed.
          this.finish();
        },
      },
      BYTE_STRATEGY,
    );
    return this.readable;
  }

  /** Writes the connection to `sink` directly (exclusive with `stream`). */
  attach(sink: SseSink): void {
    if (this.readable || this.sink) throw new Error("SseConnection: already attached");
    this.sink = sink;
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const text of pending) sink.write(text);
    if (this.closedEarly) sink.end();
  }

  /**
   * When everything was written and the connection closed before anyone read it (a reply complete at
   * once), takes it all as one text (the connection is then read); otherwise undefined.
   */
  takeComplete(): string | undefined {
    if (!this.closedEarly || this.readable || this.sink) return undefined;
    const text = (this.pending ?? []).join("");
    this.pending = undefined;
    this.sink = { write() {}, end() {} };
    return text;
  }

  /** Whether text waits for a reader (so the reader's first write carries the response head too). */
  get hasPending(): boolean {
    return this.pending !== undefined && this.pending.length > 0;
  }

  /** The client went away (the attached sink's socket closed). */
  gone(): void {
    this.finish();
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
    if (this.limit !== undefined && this.overflowed()) return false;
    try {
      if (this.sink) this.sink.write(text);
      else if (this.controller) this.controller.enqueue(utf8(text));
      else this.pending!.push(text);
      return true;
    } catch {
      this.finish();
      return false;
    }
  }

  /** Ends the response from the server side. Idempotent. */
  close(): void {
    if (this.ended) return;
    if (this.sink) this.sink.end();
    else if (this.controller) {
      try {
        this.controller.close();
      } catch {
        // Already errored or cancelled by the reader.
      }
    } else this.closedEarly = true;
    this.finish();
  }

  /**
   * A client that stopped reading: what it left unread passed the limit, so the connection is dropped
   * (with what it holds) rather than growing without bound. A legacy stream's events stay in the event
   * store, so the client can still resume with `Last-Event-ID`.
   */
  private overflowed(): boolean {
    const limit = this.limit!;
    const held = this.sink
      ? (this.sink.buffered?.() ?? 0)
      : this.controller
        ? -(this.controller.desiredSize ?? 0)
        : 0;
    if (held <= limit.maxBytes) return false;
    if (this.sink) {
      if (this.sink.destroy) this.sink.destroy();
      else this.sink.end();
    } else {
      try {
        this.controller!.error(new Error("SSE stream closed: the client left too much unread"));
      } catch {
        // Already closed by the reader.
      }
    }
    this.finish();
    limit.onOverflow(held);
    return true;
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
