import fc from "fast-check";
import { expect, it } from "vitest";
import { fuzz, readCorpus } from "../../../scripts/fuzz-kit.mjs";
import { CassetteError, parseCassette, stringifyCassette } from "../src/index.js";

// Fuzz target: the cassette reader (a cassette file is input the user may have edited or been sent). Any
// text, and any mutation of a valid cassette: a Cassette or a one-line CassetteError, nothing else; a
// cassette it accepts is written and read back unchanged.
const corpus = readCorpus(new URL("./fuzz-corpus/cassette", import.meta.url).pathname);
const valid = JSON.parse(corpus[0]!) as Record<string, any>;

const mutated = fc
  .record({
    path: fc.constantFrom(
      "format",
      "version",
      "era",
      "redacted",
      "events",
      "events.0",
      "events.0.from",
      "events.0.message",
      "events.0.message.jsonrpc",
      "events.0.message.id",
      "events.0.message.method",
      "events.1.ms",
      "protocolVersion",
    ),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
  })
  .map(({ path, value }) => {
    const copy = structuredClone(valid);
    const keys = path.split(".");
    let at: any = copy;
    for (const k of keys.slice(0, -1)) at = at?.[k];
    if (at && typeof at === "object") {
      if (value === undefined) delete at[keys.at(-1)!];
      else at[keys.at(-1)!] = value;
    }
    return JSON.stringify(copy);
  });

const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 120 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null"),
  mutated,
  mutated.map((t) => t.slice(0, Math.floor(t.length / 2))),
);

it("cassette reader: any text is a Cassette or a one-line CassetteError; accepted ones round-trip", async () => {
  await fuzz(
    "cassette-reader",
    text,
    (input) => {
      let cassette: ReturnType<typeof parseCassette>;
      try {
        cassette = parseCassette(input);
      } catch (error) {
        expect(error).toBeInstanceOf(CassetteError);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
        expect((error as Error).message).not.toMatch(/[\u0000-\u001f\u007f]/);
        expect((error as Error).message).toMatch(/^cassette/);
        return;
      }
      expect(parseCassette(stringifyCassette(cassette))).toEqual(cassette);
    },
    corpus,
  );
});
