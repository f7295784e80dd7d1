import { describe, expect, it } from "vitest";
import {
  DEFAULT_NEGOTIATED_HTTP_VERSION,
  eraOf,
  isLegacyVersion,
  isModernVersion,
  isSupportedVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./versions.js";

describe("versions", () => {
  it("lists both eras newest first", () => {
    expect(LATEST_PROTOCOL_VERSION).toBe("2026-07-28");
    expect(LATEST_LEGACY_PROTOCOL_VERSION).toBe("2025-11-25");
    expect(MODERN_PROTOCOL_VERSIONS).toEqual(["2026-07-28"]);
    expect(LEGACY_PROTOCOL_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
    expect([...SUPPORTED_PROTOCOL_VERSIONS].sort().reverse()).toEqual([...SUPPORTED_PROTOCOL_VERSIONS]);
    expect(SUPPORTED_PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
    expect(LEGACY_PROTOCOL_VERSIONS[0]).toBe(LATEST_LEGACY_PROTOCOL_VERSION);
    expect(DEFAULT_NEGOTIATED_HTTP_VERSION).toBe("2025-03-26");
  });

  it("classifies versions", () => {
    expect(isModernVersion("2026-07-28")).toBe(true);
    expect(isModernVersion("2025-11-25")).toBe(false);
    expect(isLegacyVersion("2024-11-05")).toBe(true);
    expect(isLegacyVersion("2026-07-28")).toBe(false);
    expect(isSupportedVersion("2025-06-18")).toBe(true);
    expect(isSupportedVersion("2024-10-07")).toBe(false);
    expect(isSupportedVersion(undefined)).toBe(false);
    expect(eraOf("2026-07-28")).toBe("modern");
    expect(eraOf("2025-03-26")).toBe("legacy");
    expect(eraOf("draft")).toBeUndefined();
  });
});
