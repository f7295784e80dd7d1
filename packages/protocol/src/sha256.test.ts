import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Digest } from "./sha256.js";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("sha256Digest", () => {
  it("matches the FIPS 180-4 test vectors", () => {
    expect(sha256Digest(utf8(""))).toBe(
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(sha256Digest(utf8("abc"))).toBe(
      "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(sha256Digest(utf8("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))).toBe(
      "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("agrees with node:crypto on any bytes, across the 55/56/64-byte padding edges", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const expected = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
        expect(sha256Digest(bytes)).toBe(expected);
      }),
      { numRuns: 300 },
    );
    for (const n of [55, 56, 63, 64, 65, 119, 120]) {
      const bytes = new Uint8Array(n).fill(97);
      expect(sha256Digest(bytes)).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
    }
  });
});
