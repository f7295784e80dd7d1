import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FramingError } from "./errors.js";
import { createLineFramer, recoverIdFromHead } from "./line-framer.js";

const enc = new TextEncoder();

function run(chunks: Uint8Array[], maxFrameBytes?: number) {
  const frames: string[] = [];
  const errors: FramingError[] = [];
  const framer = createLineFramer({
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
    onFrame: (f) => frames.push(f),
    onError: (e) => errors.push(e),
  });
  for (const c of chunks) framer.push(c);
  framer.end();
  return { frames, errors };
}

function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let last = 0;
  for (const p of sorted) {
    out.push(bytes.subarray(last, p));
    last = p;
  }
  out.push(bytes.subarray(last));
  return out;
}

describe("line framer", () => {
  it("splits lines, accepts CRLF, skips empty lines", () => {
    const { frames, errors } = run([enc.encode('{"a":1}\r\n\n\r\n{"b":2}\n  \n{"c":3}\n')]);
    expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(errors).toEqual([]);
  });

  it("decodes a multibyte character split across chunks", () => {
    const bytes = enc.encode('{"t":"€🌍"}\n');
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    expect(run(chunks).frames).toEqual(['{"t":"€🌍"}']);
  });

  it("reports a frame over the cap once and goes on with the next line", () => {
    const big = `{"jsonrpc":"2.0","id":7,"method":"x","params":{"p":"${"y".repeat(200)}"}}`;
    const { frames, errors } = run([enc.encode(`${big}\n{"ok":1}\n`)], 100);
    expect(frames).toEqual(['{"ok":1}']);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/cap/);
    expect(recoverIdFromHead(errors[0]!.head)).toBe(7);
  });

  it("reports the over-cap frame early, before its newline arrives, even across chunks", () => {
    const errors: FramingError[] = [];
    const frames: string[] = [];
    const framer = createLineFramer({
      maxFrameBytes: 10,
      onFrame: (f) => frames.push(f),
      onError: (e) => errors.push(e),
    });
    framer.push(enc.encode("123456"));
    framer.push(enc.encode("789012"));
    expect(errors).toHaveLength(1);
    framer.push(enc.encode("more more more\nok\n"));
    expect(frames).toEqual(["ok"]);
    expect(errors).toHaveLength(1);
  });

  it("reports a stream that ends mid-line", () => {
    const { frames, errors } = run([enc.encode('{"a":1}\n{"b":')]);
    expect(frames).toEqual(['{"a":1}']);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/middle of a line/);
  });

  it("refuses a cap that is not positive", () => {
    expect(() => createLineFramer({ maxFrameBytes: 0, onFrame() {}, onError() {} })).toThrow(RangeError);
  });

  it("recovers string and numeric ids from a frame head", () => {
    expect(recoverIdFromHead('{"jsonrpc":"2.0","id":"a\\"b","method"')).toBe('a"b');
    expect(recoverIdFromHead('{"id": -12 ,"x"')).toBe(-12);
    expect(recoverIdFromHead('{"method":"x","params":{"')).toBeNull();
    expect(recoverIdFromHead(undefined)).toBeNull();
  });

  it("property: gives the same frames for every way of cutting the bytes", () => {
    const line = fc.oneof(
      fc.json().map((j) => j.replace(/\n/g, " ")),
      fc.string({ unit: "grapheme", maxLength: 30 }).map((s) => JSON.stringify({ s })),
      fc.constant("garbage {{"),
      fc.constant(""),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, fc.boolean()), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 8, max: 200 }),
        (lines, points, cap) => {
          const text = lines.map(([l, crlf]) => l + (crlf ? "\r\n" : "\n")).join("");
          const bytes = enc.encode(text);
          const whole = run([bytes], cap);
          const pieces = run(cut(bytes, points), cap);
          expect(pieces.frames).toEqual(whole.frames);
          expect(pieces.errors.length).toBe(whole.errors.length);
          // The lines under the cap come through unchanged, in order; each over-cap line is one error.
          // The cap counts a line's bytes up to its "\n", so a CR counts too.
          const size = (l: string, crlf: boolean) => enc.encode(l).length + (crlf ? 1 : 0);
          const under = lines
            .filter(([l, crlf]) => size(l, crlf) <= cap && l.trim().length > 0)
            .map(([l]) => l);
          const over = lines.filter(([l, crlf]) => size(l, crlf) > cap).length;
          expect(whole.frames).toEqual(under);
          expect(whole.errors.length).toBe(over);
        },
      ),
      { numRuns: 300 },
    );
  });
});
