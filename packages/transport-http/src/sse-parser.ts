import { ResponseTooLargeError } from "./errors.js";

/** One dispatched Server-Sent Event. */
export interface SseEvent {
  /** The `event:` field; `"message"` when the event named none. */
  type: string;
  /** The `data:` lines joined with `\n`. An event with a `data:` line but no text has `""`. */
  data: string;
  /** The last event id in force when the event was dispatched (`""` when none was ever set). */
  id: string;
}

/**
 * Callbacks of {@link createSseParser}. They are called as methods of this object, so a class
 * instance can be passed as it is (no closures per stream).
 */
export interface SseParserOptions {
  /** A complete event (a blank line ended a block that held at least one `data:` line). */
  onEvent(event: SseEvent): void;
  /** A `retry:` field with a valid integer: the reconnection delay in milliseconds. */
  onRetry?(milliseconds: number): void;
  /** A comment line (`: text`), without the colon and one leading space; keep-alives arrive here. */
  onComment?(text: string): void;
  /**
   * The most an event (its lines so far, or any one line) may hold, in decoded characters (UTF-16 code
   * units; for JSON text, its bytes). Past it `push` throws `ResponseTooLargeError` (part `"event"`) and
   * the parser holds nothing more. Read once, at creation. Default: no cap.
   */
  readonly maxEventSize?: number | undefined;
}

/** An incremental SSE parser: feed it the stream in any cuts, in order. */
export interface SseParser {
  /**
   * Feeds the next piece of the stream: text, or bytes (UTF-8, decoded by the parser's own streaming
   * decoder, so a character may be cut anywhere). Use one kind per stream. Cuts may fall anywhere, even
   * between `\r` and `\n`; a whole body pushed at once is parsed in one linear scan. Throws
   * `ResponseTooLargeError` when an event passes `maxEventSize`.
   */
  push(chunk: string | Uint8Array): void;
  /**
   * Ends the stream. A final block not ended by a blank line is discarded, as the SSE standard
   * requires (an event is only complete once its blank line arrived). `lastEventId` is kept.
   */
  end(): void;
  /** The last event id seen so far (`id:` fields update it even in blocks that dispatch nothing). */
  readonly lastEventId: string;
}

const STREAM = { stream: true };

/** The parser behind {@link createSseParser}: one object per stream, its steps on the prototype. */
class EventStreamParser implements SseParser {
  lastEventId = "";
  private buffer = "";
  private first = true;
  // A CR ended the previous chunk: an LF at the start of the next one belongs to it.
  private pendingCr = false;
  private data = "";
  private hasData = false;
  private type = "";
  private decoder: TextDecoder | undefined = undefined;
  private readonly max: number;

  constructor(private readonly sink: SseParserOptions) {
    this.max = sink.maxEventSize ?? Number.POSITIVE_INFINITY;
  }

  push(chunk: string | Uint8Array): void {
    if (typeof chunk === "string") this.scan(chunk);
    else this.scan((this.decoder ??= new TextDecoder()).decode(chunk, STREAM));
  }

  end(): void {
    // What the decoder still holds is an incomplete character: never a line end, so nothing to scan.
    this.decoder = undefined;
    this.buffer = "";
    this.data = "";
    this.hasData = false;
    this.type = "";
    this.pendingCr = false;
  }

  /** One pass over the new text only: a long line arriving in many cuts costs linear time. */
  private scan(text: string): void {
    const n = text.length;
    if (n === 0) return;
    let start = 0;
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.pendingCr) {
      this.pendingCr = false;
      if (text.charCodeAt(start) === 10) start++;
    }
    for (let i = start; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (this.buffer === "") {
        this.line(text, start, i);
      } else {
        const whole = this.buffer + text.slice(start, i);
        this.buffer = "";
        this.line(whole, 0, whole.length);
      }
      if (c === 13) {
        if (i + 1 < n) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    if (start < n) {
      this.buffer += start === 0 ? text : text.slice(start);
      if (this.buffer.length + this.data.length > this.max) this.overflow();
    }
  }

  /** An event passed the cap: what it held is dropped and the stream is refused. */
  private overflow(): never {
    this.end();
    throw new ResponseTooLargeError("event", this.max);
  }

  /** The line `text[start, end)`, read in place (no copy of the line itself). */
  private line(text: string, start: number, end: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    if (end - start > this.max) this.overflow();
    const sink = this.sink;
    if (text.charCodeAt(start) === 58) {
      if (sink.onComment) {
        sink.onComment(
          text.slice(start + 1 < end && text.charCodeAt(start + 1) === 32 ? start + 2 : start + 1, end),
        );
      }
      return;
    }
    // Bounded by the line: indexOf would run on into the following lines when this one has no colon.
    let colon = -1;
    for (let j = start + 1; j < end; j++) {
      if (text.charCodeAt(j) === 58) {
        colon = j;
        break;
      }
    }
    let field: string;
    let value: string;
    if (colon < 0) {
      field = text.slice(start, end);
      value = "";
    } else {
      field = text.slice(start, colon);
      value = text.slice(colon + 1 < end && text.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1, end);
    }
    switch (field) {
      case "data":
        this.data = this.hasData ? `${this.data}\n${value}` : value;
        this.hasData = true;
        if (this.data.length > this.max) this.overflow();
        return;
      case "event":
        this.type = value;
        return;
      case "id":
        if (!value.includes("\0")) this.lastEventId = value;
        return;
      case "retry":
        if (/^[0-9]+$/.test(value)) sink.onRetry?.(Number(value));
        return;
      default:
        return;
    }
  }

  private dispatch(): void {
    const type = this.type;
    this.type = "";
    if (!this.hasData) return;
    const event: SseEvent = { type: type === "" ? "message" : type, data: this.data, id: this.lastEventId };
    this.data = "";
    this.hasData = false;
    this.sink.onEvent(event);
  }
}

/**
 * Creates a Server-Sent Events parser following the WHATWG HTML "event stream interpretation":
 * lines end in CRLF, LF or CR; `data:` lines accumulate; `id:` sets the last event id (unless it
 * contains NUL); `retry:` takes ASCII digits only; lines starting with `:` are comments; a leading
 * BOM is skipped; a block without `data:` dispatches nothing. It is the one SSE parser of this
 * package: both client transports read every reply through it, whether the body arrives in pieces
 * (a Web `ReadableStream`, a `node:http` stream) or whole (a reply already buffered).
 *
 * It takes text or UTF-8 bytes (see {@link SseParser.push}); it does no I/O.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export function createSseParser(options: SseParserOptions): SseParser {
  return new EventStreamParser(options);
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
