import { createSseParser, type SseEvent, type SseParser } from "../sse-parser.js";

/** What a reader learned about its stream, kept across reconnections. */
export interface SseCursor {
  lastEventId: string;
  /** The server's `retry`, in milliseconds, if it sent one. */
  retry: number | undefined;
}

/** Parser callbacks that keep a cursor up to date as events pass on: one object, no closures. */
class CursorSink {
  constructor(
    private readonly cursor: SseCursor,
    private readonly deliver: (event: SseEvent) => void,
    readonly maxEventSize: number | undefined,
  ) {}

  onEvent(event: SseEvent): void {
    this.cursor.lastEventId = event.id;
    this.deliver(event);
  }

  onRetry(milliseconds: number): void {
    this.cursor.retry = milliseconds;
  }
}

/**
 * An SSE parser that keeps `cursor` (last event id, retry) up to date as events pass to `onEvent`, and
 * refuses an event past `maxEventSize` (see `SseParserOptions.maxEventSize`).
 */
export function cursorParser(
  cursor: SseCursor,
  onEvent: (event: SseEvent) => void,
  maxEventSize?: number,
): SseParser {
  return createSseParser(new CursorSink(cursor, onEvent, maxEventSize));
}

/**
 * Moves `cursor` to the parser's last event id once a read settled (ended or broke): an id-only block (a
 * priming event) dispatches nothing but still moves it, and a resumption must start after it.
 */
export function settleCursor(cursor: SseCursor, parser: SseParser): void {
  if (parser.lastEventId !== "") cursor.lastEventId = parser.lastEventId;
}
