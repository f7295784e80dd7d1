import fc from "fast-check";
import { expect, it } from "vitest";
import { fuzz, readCorpus } from "../../../scripts/fuzz-kit.mjs";
import { createSseParser, formatSseEvent, ResponseTooLargeError } from "../src/index.js";

// Fuzz target: the SSE parser (a server's event stream). Any text or bytes in any cuts: no throw but
// ResponseTooLargeError past the cap, the same events, retries, comments and last id as the stream uncut;
// any event formatSseEvent writes comes back as it was.
const corpus = readCorpus(new URL("./fuzz-corpus/sse-parser", import.meta.url).pathname);

function parse(chunks: Array<string | Uint8Array>, maxEventSize?: number) {
  const out: unknown[] = [];
  const parser = createSseParser({
    maxEventSize,
    onEvent: (e) => out.push(["event", e.type, e.data, e.id]),
    onRetry: (ms) => out.push(["retry", ms]),
    onComment: (text) => out.push(["comment", text]),
  });
  try {
    for (const chunk of chunks) parser.push(chunk);
    parser.end();
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    out.push("too-large");
  }
  out.push(["last-id", parser.lastEventId]);
  return out;
}

function cutAt<T extends string | Uint8Array>(whole: T, offsets: number[]): T[] {
  const points = [...new Set(offsets.map((o) => o % (whole.length + 1)))].sort((a, b) => a - b);
  const chunks: T[] = [];
  let at = 0;
  for (const p of [...points, whole.length]) {
    chunks.push(whole.slice(at, p) as T);
    at = p;
  }
  return chunks;
}

const token = fc.oneof(
  fc.constantFrom(
    "data:",
    "data: ",
    "event: ",
    "id: ",
    "retry: ",
    ": ",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "\uFEFF",
    "\0",
  ),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.integer({ min: -5, max: 99999 }).map(String),
);
const stream = fc.array(token, { maxLength: 40 }).map((parts) => parts.join(""));

it("SSE parser: any stream, as text or UTF-8 bytes, in any cuts: the same as uncut", async () => {
  await fuzz(
    "sse-parser",
    fc.record({
      text: stream,
      offsets: fc.array(fc.nat(), { maxLength: 8 }),
      cap: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
    }),
    ({ text, offsets, cap }) => {
      const whole = parse([text], cap);
      expect(parse(cutAt(text, offsets), cap)).toEqual(whole);
      const bytes = new TextEncoder().encode(text);
      const wholeBytes = parse([bytes], cap);
      expect(parse(cutAt(bytes, offsets), cap)).toEqual(wholeBytes);
    },
    corpus.map((text) => ({ text, offsets: [1, 3, 7, 20], cap: undefined })),
  );
});

it("SSE parser: what formatSseEvent writes comes back (type, data, id, retry)", async () => {
  const field = fc.string({ maxLength: 20 }).filter((s) => !/[\r\n\0]/.test(s) && s.trim() === s);
  await fuzz(
    "sse-format-roundtrip",
    fc.record({
      event: fc.option(
        field.filter((s) => s !== ""),
        { nil: undefined },
      ),
      id: fc.option(field, { nil: undefined }),
      data: fc.string({ unit: "binary", maxLength: 40 }),
      retry: fc.option(fc.integer({ min: 0, max: 1e6 }), { nil: undefined }),
      offsets: fc.array(fc.nat(), { maxLength: 5 }),
    }),
    ({ offsets, ...init }) => {
      const out = parse(cutAt(formatSseEvent(init), offsets));
      const data = init.data.replace(/\r\n|\r/g, "\n");
      expect(out).toEqual([
        ...(init.retry === undefined ? [] : [["retry", init.retry]]),
        [
          "event",
          init.event ?? "message",
          new TextDecoder().decode(new TextEncoder().encode(data)),
          init.id ?? "",
        ],
        ["last-id", init.id ?? ""],
      ]);
    },
  );
});
