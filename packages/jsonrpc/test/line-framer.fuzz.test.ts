import fc from "fast-check";
import { expect, it } from "vitest";
import { fuzz, readCorpus } from "../../../scripts/fuzz-kit.mjs";
import { createLineFramer, FramingError } from "../src/index.js";

// Fuzz target: the stdio line framer (bytes from a peer). Any bytes in any cuts: it never throws, reports
// only FramingErrors, and frames exactly as it does for the same bytes uncut.
const corpus = readCorpus(new URL("./fuzz-corpus/line-framer", import.meta.url).pathname);

function frame(chunks: Uint8Array[], maxFrameBytes: number) {
  const out: string[] = [];
  const framer = createLineFramer({
    maxFrameBytes,
    onFrame: (line) => out.push(`frame:${line}`),
    onError: (error) => {
      expect(error).toBeInstanceOf(FramingError);
      out.push("error");
    },
  });
  for (const chunk of chunks) framer.push(chunk);
  framer.end();
  return out;
}

/** `bytes` cut at the given offsets (each chunk a copy: the framer keeps views). */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    chunks.push(bytes.slice(at, p));
    at = p;
  }
  return chunks;
}

const lineBytes = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc
    .array(fc.oneof(fc.string({ unit: "binary", maxLength: 30 }), fc.constantFrom("\n", "\r\n", "\r", "")), {
      maxLength: 12,
    })
    .map((parts) => new TextEncoder().encode(parts.join(""))),
);
const seeds = corpus.map((text) => ({ bytes: new TextEncoder().encode(text), offsets: [1, 5, 17], cap: 64 }));

it("line framer: any bytes, any cuts, any cap: no throw, FramingErrors only, cut-invariant", async () => {
  const executions = await fuzz(
    "line-framer",
    fc.record({
      bytes: lineBytes,
      offsets: fc.array(fc.nat(), { maxLength: 8 }),
      cap: fc.integer({ min: 1, max: 256 }),
    }),
    ({ bytes, offsets, cap }) => {
      expect(frame(cut(bytes, offsets), cap)).toEqual(frame([bytes.slice()], cap));
    },
    seeds,
  );
  expect(executions).toBeGreaterThan(corpus.length);
});

it("line framer: lines joined by \\n (or \\r\\n) come back as the non-empty lines, in order", async () => {
  await fuzz(
    "line-framer-roundtrip",
    fc.record({
      lines: fc.array(
        fc.string({ maxLength: 40 }).filter((s) => !s.includes("\n") && !s.endsWith("\r")),
        { maxLength: 10 },
      ),
      crlf: fc.boolean(),
      offsets: fc.array(fc.nat(), { maxLength: 6 }),
    }),
    ({ lines, crlf, offsets }) => {
      const text = lines.map((l) => `${l}${crlf ? "\r\n" : "\n"}`).join("");
      const framed = frame(cut(new TextEncoder().encode(text), offsets), 1 << 20);
      // The framer decodes UTF-8 like TextDecoder (lone surrogates become U+FFFD) and skips lines of only
      // whitespace, which carry no message.
      const expected = lines
        .map((l) => new TextDecoder().decode(new TextEncoder().encode(l)))
        .filter((l) => l.trim() !== "")
        .map((l) => `frame:${l}`);
      expect(framed).toEqual(expected);
    },
  );
});
