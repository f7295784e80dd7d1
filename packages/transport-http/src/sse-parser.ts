/** One dispatched Server-Sent Event. */
export interface SseEvent {
  /** The `event:` field; `"message"` when the event named none. */
  type: string;
  /** The `data:` lines joined with `\n`. An event with a `data:` line but no text has `""`. */
  data: string;
  /** The last event id in force when the event was dispatched (`""` when none was ever set). */
  id: string;
}

/** Callbacks of {@link createSseParser}. */
export interface SseParserOptions {
  /** A complete event (a blank line ended a block that held at least one `data:` line). */
  onEvent(event: SseEvent): void;
  /** A `retry:` field with a valid integer: the reconnection delay in milliseconds. */
  onRetry?(milliseconds: number): void;
  /** A comment line (`: text`), without the colon and one leading space; keep-alives arrive here. */
  onComment?(text: string): void;
}

/** An incremental SSE parser: feed it text in any cuts, in order. */
export interface SseParser {
  /** Feeds the next piece of decoded text. Cuts may fall anywhere, even between `\r` and `\n`. */
  push(text: string): void;
  /**
   * Ends the stream. A final block not ended by a blank line is discarded, as the SSE standard
   * requires (an event is only complete once its blank line arrived).
   */
  end(): void;
  /** The last event id seen so far (`id:` fields update it even in blocks that dispatch nothing). */
  readonly lastEventId: string;
}

/**
 * Creates a Server-Sent Events parser following the WHATWG HTML "event stream interpretation":
 * lines end in CRLF, LF or CR; `data:` lines accumulate; `id:` sets the last event id (unless it
 * contains NUL); `retry:` takes ASCII digits only; lines starting with `:` are comments; a leading
 * BOM is skipped; a block without `data:` dispatches nothing. Used by both client transports.
 *
 * It parses text, not bytes: decode with a streaming `TextDecoder` (`{ stream: true }`) first.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export function createSseParser(options: SseParserOptions): SseParser {
  const { onEvent, onRetry, onComment } = options;
  let buffer = "";
  let first = true;
  // A CR ended the previous chunk: an LF at the start of the next one belongs to it.
  let pendingCr = false;
  let data = "";
  let hasData = false;
  let type = "";
  let lastEventId = "";

  function dispatch(): void {
    if (hasData) {
      const event: SseEvent = { type: type === "" ? "message" : type, data, id: lastEventId };
      data = "";
      hasData = false;
      type = "";
      onEvent(event);
      return;
    }
    type = "";
  }

  function line(text: string): void {
    if (text === "") {
      dispatch();
      return;
    }
    const colon = text.indexOf(":");
    if (colon === 0) {
      onComment?.(text.charCodeAt(1) === 32 ? text.slice(2) : text.slice(1));
      return;
    }
    let field: string;
    let value: string;
    if (colon < 0) {
      field = text;
      value = "";
    } else {
      field = text.slice(0, colon);
      value = text.charCodeAt(colon + 1) === 32 ? text.slice(colon + 2) : text.slice(colon + 1);
    }
    switch (field) {
      case "data":
        data = hasData ? `${data}\n${value}` : value;
        hasData = true;
        return;
      case "event":
        type = value;
        return;
      case "id":
        if (!value.includes("\0")) lastEventId = value;
        return;
      case "retry":
        if (/^[0-9]+$/.test(value)) onRetry?.(Number(value));
        return;
      default:
        return;
    }
  }

  return {
    get lastEventId() {
      return lastEventId;
    },
    push(text: string) {
      if (text.length === 0) return;
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (pendingCr) {
        pendingCr = false;
        if (text.charCodeAt(0) === 10) text = text.slice(1);
      }
      // Only the new text is scanned: a long line arriving in many cuts costs linear time.
      let start = 0;
      const n = text.length;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        const piece = text.slice(start, i);
        if (buffer === "") {
          line(piece);
        } else {
          const whole = buffer + piece;
          buffer = "";
          line(whole);
        }
        if (c === 13) {
          if (i + 1 < n) {
            if (text.charCodeAt(i + 1) === 10) i++;
          } else {
            pendingCr = true;
          }
        }
        start = i + 1;
      }
      if (start < n) buffer += start === 0 ? text : text.slice(start);
    },
    end() {
      buffer = "";
      data = "";
      hasData = false;
      type = "";
      pendingCr = false;
    },
  };
}

/** Fields of one event to write. */
export interface SseEventInit {
  id?: string;
  event?: string;
  /** Written as one `data:` line per line of text; `""` writes one empty `data:` line. */
  data?: string;
  retry?: number;
}

/**
 * Serializes one event (ending in the blank line that dispatches it). `data` with line breaks is
 * split over several `data:` lines, so any text round-trips through {@link createSseParser}.
 */
export function formatSseEvent(init: SseEventInit): string {
  let out = "";
  if (init.event !== undefined) out += `event: ${init.event}\n`;
  if (init.id !== undefined) out += `id: ${init.id}\n`;
  if (init.retry !== undefined) out += `retry: ${Math.max(0, Math.floor(init.retry))}\n`;
  if (init.data !== undefined) {
    if (init.data.includes("\n") || init.data.includes("\r")) {
      for (const part of init.data.split(/\r\n|\r|\n/)) out += `data: ${part}\n`;
    } else {
      out += `data: ${init.data}\n`;
    }
  }
  return `${out}\n`;
}
