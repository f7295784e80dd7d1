import { describe, expect, it } from "vitest";
import { resolveSettings } from "./options.js";

describe("resolveSettings", () => {
  it("fills in every default", () => {
    const s = resolveSettings({ name: "t", version: "1" });
    expect(s.connectTimeout).toBe(30_000);
    expect(s.probeTimeout).toBe(10_000);
    expect(s.maxInputRounds).toBe(10);
    expect(s.negotiation).toBe("auto");
    expect(s.preferredModern).toBe("2026-07-28");
    expect(s.preferredLegacy).toBe("2025-11-25");
    expect(s.requestConfig).toEqual({});
    expect(s.clientInfo).toEqual({ name: "t", version: "1" });
  });

  it("files a protocolVersion under its era and refuses one it does not speak", () => {
    expect(resolveSettings({ name: "t", version: "1", protocolVersion: "2025-03-26" }).preferredLegacy).toBe(
      "2025-03-26",
    );
    expect(() => resolveSettings({ name: "t", version: "1", protocolVersion: "1999-01-01" })).toThrow(
      RangeError,
    );
  });

  it("refuses bad timeouts, rounds and negotiation modes", () => {
    expect(() => resolveSettings({ name: "t", version: "1", requestTimeout: 0 })).toThrow(RangeError);
    expect(() => resolveSettings({ name: "t", version: "1", maxInputRounds: 1.5 })).toThrow(RangeError);
    expect(() => resolveSettings({ name: "t", version: "1", versionNegotiation: "x" as never })).toThrow(
      RangeError,
    );
    expect(() => resolveSettings({} as never)).toThrow(TypeError);
  });

  it("copies the handlers and makes onError safe to call with anything", () => {
    const handlers = { roots: () => [] };
    const seen: Error[] = [];
    const s = resolveSettings({ name: "t", version: "1", handlers, onError: (e) => seen.push(e) });
    expect(s.handlers).not.toBe(handlers);
    s.onError("text");
    expect(seen[0]).toBeInstanceOf(Error);
    const throwing = resolveSettings({
      name: "t",
      version: "1",
      onError: () => {
        throw new Error("boom");
      },
    });
    expect(() => throwing.onError(new Error("x"))).not.toThrow();
  });
});
