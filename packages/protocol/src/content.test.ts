import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { audio, embeddedResource, fromBase64, image, resourceLink, text, toBase64 } from "./content.js";

describe("content builders", () => {
  it("build spec-shaped blocks, adding annotations only when given", () => {
    expect(text("hi")).toEqual({ type: "text", text: "hi" });
    expect(text("hi", { priority: 1 })).toEqual({ type: "text", text: "hi", annotations: { priority: 1 } });
    expect(image("AA==", "image/png")).toEqual({ type: "image", data: "AA==", mimeType: "image/png" });
    expect(audio("AA==", "audio/wav")).toEqual({ type: "audio", data: "AA==", mimeType: "audio/wav" });
    expect(resourceLink({ uri: "file:///a", name: "a" })).toEqual({
      type: "resource_link",
      uri: "file:///a",
      name: "a",
    });
    expect(embeddedResource({ uri: "file:///a", text: "x" })).toEqual({
      type: "resource",
      resource: { uri: "file:///a", text: "x" },
    });
  });
});

describe("base64", () => {
  it("matches the RFC 4648 test vectors", () => {
    const vectors = ["", "f", "fo", "foo", "foob", "fooba", "foobar"];
    const encoded = ["", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"];
    vectors.forEach((v, i) => {
      expect(toBase64(new TextEncoder().encode(v))).toBe(encoded[i]);
      expect(new TextDecoder().decode(fromBase64(encoded[i]!))).toBe(v);
    });
    expect(new TextDecoder().decode(fromBase64("Zm8"))).toBe("fo");
  });

  it("rejects invalid input", () => {
    for (const bad of ["Zm9v!", "Z", "Zm9v====", "Zg=", "Z g=="])
      expect(() => fromBase64(bad)).toThrow(TypeError);
  });

  it("encodes a view of a larger buffer correctly", () => {
    const big = new Uint8Array([0, 1, 2, 3, 4, 5]);
    expect(toBase64(big.subarray(2, 5))).toBe(toBase64(new Uint8Array([2, 3, 4])));
  });
});

describe("base64 without Buffer", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("gives the same results as with Buffer", async () => {
    const NodeBuffer = globalThis.Buffer;
    vi.stubGlobal("Buffer", undefined);
    vi.resetModules();
    const neutral = await import("./content.js");
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const b64 = neutral.toBase64(bytes);
        return (
          b64 === NodeBuffer.from(bytes).toString("base64") && neutral.fromBase64(b64).join() === bytes.join()
        );
      }),
    );
  });
});
