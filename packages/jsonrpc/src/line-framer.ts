import { FramingError } from "./errors.js";

/** 16 MiB: the default cap on one frame, in bytes. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;
const HEAD_BYTES = 256;

/** Options of {@link createLineFramer}. */
export interface LineFramerOptions {
  /** Cap on one frame in bytes, excluding the newline. Default 16 MiB. */
  maxFrameBytes?: number;
  /** Called with each complete, non-empty line, decoded as UTF-8 with any `\r` before the `\n` removed. */
  onFrame: (line: string) => void;
  /**
   * Called when a frame exceeds the cap (once per frame, as soon as the cap is passed; the rest of
   * the frame up to the next newline is skipped) and when the stream ends in the middle of a line.
   */
  onError: (error: FramingError) => void;
}

/** A byte line framer: push bytes in, frames come out through the callbacks. */
export interface LineFramer {
  /** Feeds the next chunk. The framer keeps a view of the chunk, so the caller must not reuse it. */
  push(chunk: Uint8Array): void;
  /** The stream ended: reports a partial last line as a {@link FramingError}, then resets. */
  end(): void;
  /** Bytes held for the line in progress. */
  readonly pendingBytes: number;
}

/**
 * Creates a newline-delimited frame splitter.
 *
 * Linear in the bytes received: each chunk is scanned once for `\n`, the pieces of a line in
 * progress are kept as views and joined once when the line completes, and UTF-8 is decoded only for
 * whole lines, so a character split across chunks is safe. Empty lines are skipped. A line over
 * the cap is reported and skipped up to the next newline; framing goes on after it.
 */
export function createLineFramer(options: LineFramerOptions): LineFramer {
  const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (!(max > 0)) throw new RangeError(`maxFrameBytes must be a positive number, got ${String(max)}`);
  const decoder = new TextDecoder("utf-8");
  const { onFrame, onError } = options;
  let pieces: Uint8Array[] = [];
  let pending = 0;
  // True while skipping the rest of an over-cap line.
  let discarding = false;

  function headOf(first: Uint8Array): string {
    return decoder.decode(first.subarray(0, HEAD_BYTES));
  }

  function emit(line: Uint8Array): void {
    let end = line.length;
    if (end > 0 && line[end - 1] === CR) end--;
    if (end === 0) return;
    const text = decoder.decode(end === line.length ? line : line.subarray(0, end));
    // A line of only whitespace carries no message: treat it as empty.
    if (text.trim().length === 0) return;
    onFrame(text);
  }

  function overflow(first: Uint8Array, bytes: number): void {
    discarding = true;
    pieces = [];
    pending = 0;
    onError(
      new FramingError(
        `Frame exceeds the ${max}-byte cap; skipped to the next newline`,
        bytes,
        headOf(first),
      ),
    );
  }

  return {
    get pendingBytes() {
      return pending;
    },
    push(chunk: Uint8Array): void {
      let start = 0;
      const length = chunk.length;
      while (start < length) {
        const nl = chunk.indexOf(NEWLINE, start);
        if (nl === -1) {
          if (discarding) return;
          const rest = length - start;
          if (pending + rest > max) {
            overflow(pieces[0] ?? chunk.subarray(start), pending + rest);
            return;
          }
          pieces.push(chunk.subarray(start));
          pending += rest;
          return;
        }
        if (discarding) {
          discarding = false;
        } else {
          const segment = nl - start;
          if (pending + segment > max) {
            const first = pieces[0] ?? chunk.subarray(start, nl);
            overflow(first, pending + segment);
            discarding = false;
          } else if (pending === 0) {
            emit(chunk.subarray(start, nl));
          } else {
            const line = new Uint8Array(pending + segment);
            let offset = 0;
            for (const piece of pieces) {
              line.set(piece, offset);
              offset += piece.length;
            }
            line.set(chunk.subarray(start, nl), offset);
            pieces = [];
            pending = 0;
            emit(line);
          }
        }
        start = nl + 1;
      }
    },
    end(): void {
      // An over-cap line cut off by the end of the stream was already reported.
      discarding = false;
      if (pending > 0) {
        const bytes = pending;
        const first = pieces[0]!;
        pieces = [];
        pending = 0;
        onError(new FramingError("Stream ended in the middle of a line", bytes, headOf(first)));
      }
    },
  };
}

/**
 * Reads a request id from the first bytes of a frame (as a {@link FramingError} carries them), so
 * an over-cap request can still be answered with its own id. Returns null when none is found.
 */
export function recoverIdFromHead(head: string | undefined): string | number | null {
  if (!head) return null;
  const match = /"id"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|(-?\d+)(?=\s*[,}]))/.exec(head);
  if (!match) return null;
  if (match[1] !== undefined) {
    try {
      return JSON.parse(`"${match[1]}"`) as string;
    } catch {
      return null;
    }
  }
  const n = Number(match[2]);
  return Number.isSafeInteger(n) ? n : null;
}
