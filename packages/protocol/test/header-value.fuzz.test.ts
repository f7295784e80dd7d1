import fc from "fast-check";
import { expect, it } from "vitest";
import { fuzz, readCorpus } from "../../../scripts/fuzz-kit.mjs";
import { decodeHeaderValue, encodeHeaderValue } from "../src/index.js";

// Fuzz target: the header value decoder (`Mcp-Name`, `Mcp-Param-*`, `=?base64?…?=`), fed by a peer's
// headers. Any value: no throw, a string or undefined; any string encodes to a header-safe value that
// decodes back to it; a decoded sentinel re-encodes to a value that decodes the same.
const corpus = readCorpus(new URL("./fuzz-corpus/header-value", import.meta.url).pathname);
const HEADER_SAFE = /^[\x20-\x7e]*$/;

const headerish = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 40 }),
  fc.base64String({ maxLength: 40 }).map((b) => `=?base64?${b}?=`),
  fc.string({ maxLength: 40 }).map((b) => `=?base64?${b}?=`),
  fc.uint8Array({ maxLength: 30 }).map((bytes) => `=?base64?${Buffer.from(bytes).toString("base64")}?=`),
);

it("header value: decode never throws; what it accepts re-encodes to the same value", async () => {
  await fuzz(
    "header-value-decode",
    headerish,
    (raw) => {
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) return;
      expect(typeof decoded).toBe("string");
      expect(decodeHeaderValue(encodeHeaderValue(decoded))).toBe(decoded);
    },
    corpus,
  );
});

it("header value: any well-formed string encodes header-safe and decodes back", async () => {
  await fuzz("header-value-roundtrip", fc.string({ unit: "binary", maxLength: 60 }), (value) => {
    const encoded = encodeHeaderValue(value);
    expect(encoded).toMatch(HEADER_SAFE);
    expect(encoded.trim()).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toBe(value);
  });
});
