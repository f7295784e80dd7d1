import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSseParser, formatSseEvent, type SseEvent } from "./sse-parser.js";

function parseAll(chunks: string[]): {
  events: SseEvent[];
  retries: number[];
  comments: string[];
  lastEventId: string;
} {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const comments: string[] = [];
  const parser = createSseParser({
    onEvent: (e) => events.push(e),
    onRetry: (ms) => retries.push(ms),
    onComment: (c) => comments.push(c),
  });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { events, retries, comments, lastEventId: parser.lastEventId };
}

/** Cuts text at the given fractional positions. */
function cut(text: string, points: number[]): string[] {
  const at = [...new Set(points.map((p) => Math.floor(p * (text.length + 1))))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of at) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}

describe("createSseParser", () => {
  it("parses data, event type, id and retry", () => {
    const { events, retries } = parseAll(["event: endpoint\nid: 7\nretry: 1500\ndata: /messages?x=1\n\n"]);
    expect(events).toEqual([{ type: "endpoint", data: "/messages?x=1", id: "7" }]);
    expect(retries).toEqual([1500]);
  });

  it("joins multi-line data with LF and defaults the type to message", () => {
    expect(parseAll(["data: a\ndata:b\ndata:  c\n\n"]).events).toEqual([
      { type: "message", data: "a\nb\n c", id: "" },
    ]);
  });

  it("dispatches a priming event (id, empty data) with data ''", () => {
    const { events, lastEventId } = parseAll(["id: s1_1\nretry: 10\ndata: \n\n"]);
    expect(events).toEqual([{ type: "message", data: "", id: "s1_1" }]);
    expect(lastEventId).toBe("s1_1");
  });

  it("keeps the last event id across events and updates it from id-only blocks", () => {
    const { events, lastEventId } = parseAll(["id: 1\ndata: x\n\ndata: y\n\nid: 2\n\n"]);
    expect(events.map((e) => e.id)).toEqual(["1", "1"]);
    expect(lastEventId).toBe("2");
  });

  it("ignores ids containing NUL, non-numeric retry, unknown fields; reports comments", () => {
    const { events, retries, comments } = parseAll([
      ": keep-alive\nid: a\0b\nretry: 1x\nfoo: bar\ndata: z\n\n",
    ]);
    expect(events).toEqual([{ type: "message", data: "z", id: "" }]);
    expect(retries).toEqual([]);
    expect(comments).toEqual(["keep-alive"]);
  });

  it("skips a leading BOM and handles CR, LF and CRLF, even with CR and LF in separate chunks", () => {
    const { events } = parseAll(["\uFEFFdata: 1\r", "\ndata: 2\r\r", "data: 3\n\n"]);
    expect(events).toEqual([
      { type: "message", data: "1\n2", id: "" },
      { type: "message", data: "3", id: "" },
    ]);
  });

  it("discards an unterminated final block", () => {
    expect(parseAll(["data: done\n\ndata: cut off"]).events.map((e) => e.data)).toEqual(["done"]);
  });

  it("a field line without a colon is a field with an empty value", () => {
    expect(parseAll(["data\n\n"]).events).toEqual([{ type: "message", data: "", id: "" }]);
  });

  const lineEnd = fc.constantFrom("\n", "\r", "\r\n");
  // Text a data line may hold: no CR or LF (a line break splits data lines, which the formatter does).
  const safeText = fc.string({
    unit: fc.constantFrom("a", "é", "🌍", " ", ":", "{", "}", '"', "\u2028", "x"),
  });
  const eventArb = fc.record({
    type: fc.option(fc.constantFrom("message", "endpoint", "ping"), { nil: undefined }),
    lines: fc.array(safeText, { minLength: 1, maxLength: 4 }),
    id: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), { nil: undefined }),
    retry: fc.option(fc.nat({ max: 100_000 }), { nil: undefined }),
    comment: fc.option(safeText, { nil: undefined }),
  });

  it("property: any cut of any event stream, with any line endings, gives the same events", () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 12 }),
        lineEnd,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }),
        (events, eol, points) => {
          let text = "";
          const expected: SseEvent[] = [];
          const retries: number[] = [];
          let id = "";
          for (const e of events) {
            const lines: string[] = [];
            if (e.comment !== undefined) lines.push(`:${e.comment}`);
            if (e.type !== undefined) lines.push(`event: ${e.type}`);
            if (e.id !== undefined) lines.push(`id: ${e.id}`);
            if (e.retry !== undefined) {
              lines.push(`retry: ${e.retry}`);
              retries.push(e.retry);
            }
            for (const l of e.lines) lines.push(`data: ${l}`);
            text += lines.map((l) => l + eol).join("") + eol;
            if (e.id !== undefined) id = e.id;
            expected.push({ type: e.type ?? "message", data: e.lines.join("\n"), id });
          }
          const whole = parseAll([text]);
          const pieces = parseAll(cut(text, points));
          expect(pieces.events).toEqual(expected);
          expect(whole.events).toEqual(expected);
          expect(pieces.retries).toEqual(retries);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("takes UTF-8 bytes, a character cut anywhere, and gives what the same text gives", () => {
    const text = 'id: é1\ndata: {"x":"🌍 é"}\n\nevent: ping\ndata: 中\n\n';
    const bytes = new TextEncoder().encode(text);
    const expected = parseAll([text]);
    for (let at = 0; at <= bytes.length; at++) {
      const events: SseEvent[] = [];
      const parser = createSseParser({ onEvent: (e) => events.push(e) });
      parser.push(bytes.subarray(0, at));
      parser.push(bytes.subarray(at));
      parser.end();
      expect({ events, lastEventId: parser.lastEventId }, String(at)).toEqual({
        events: expected.events,
        lastEventId: expected.lastEventId,
      });
    }
  });

  it("reads a whole body in one push as it reads the same body cut line by line", () => {
    const body = "\uFEFFretry: 5\r\nid: 1\r\ndata: a\r\n\r\n: note\rdata: b\rdata: c\r\rid: 2\ndata\n\n";
    const whole = parseAll([body]);
    expect(whole.events).toEqual([
      { type: "message", data: "a", id: "1" },
      { type: "message", data: "b\nc", id: "1" },
      { type: "message", data: "", id: "2" },
    ]);
    expect(whole.retries).toEqual([5]);
    expect(whole.comments).toEqual(["note"]);
    expect(parseAll(body.split(/(?<=[\r\n])/))).toEqual(whole);
  });

  it("calls its callbacks as methods of the options object", () => {
    const sink = {
      seen: [] as string[],
      onEvent(event: SseEvent) {
        this.seen.push(event.data);
      },
      onRetry(ms: number) {
        this.seen.push(`retry ${ms}`);
      },
    };
    const parser = createSseParser(sink);
    parser.push("retry: 9\ndata: x\n\n");
    expect(sink.seen).toEqual(["retry 9", "x"]);
  });

  it("property: any cut of the UTF-8 bytes of any event stream gives the events of the whole text", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            data: fc.string({ unit: "grapheme" }),
            id: fc.option(fc.stringMatching(/^[a-z0-9]{1,8}$/), { nil: undefined }),
          }),
          { maxLength: 6 },
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 }),
        (events, points) => {
          const text = events
            .map((e) => formatSseEvent(e.id === undefined ? { data: e.data } : { data: e.data, id: e.id }))
            .join("");
          const bytes = new TextEncoder().encode(text);
          const at = [...new Set(points.map((p) => Math.floor(p * (bytes.length + 1))))].sort(
            (a, b) => a - b,
          );
          const got: SseEvent[] = [];
          const parser = createSseParser({ onEvent: (e) => got.push(e) });
          let prev = 0;
          for (const p of [...at, bytes.length]) {
            parser.push(bytes.subarray(prev, p));
            prev = p;
          }
          parser.end();
          expect(got).toEqual(parseAll([text]).events);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("property: formatSseEvent round-trips any data, including line breaks", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            data: fc.string(),
            id: fc.option(fc.stringMatching(/^[a-z0-9]{1,8}$/), { nil: undefined }),
          }),
          {
            maxLength: 8,
          },
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 }),
        (events, points) => {
          const text = events
            .map((e) => formatSseEvent(e.id === undefined ? { data: e.data } : { data: e.data, id: e.id }))
            .join("");
          let id = "";
          const expected = events.map((e) => {
            if (e.id !== undefined) id = e.id;
            return { type: "message", data: e.data.replace(/\r\n|\r/g, "\n"), id };
          });
          expect(parseAll(cut(text, points)).events).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
