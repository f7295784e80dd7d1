import { loadSchema } from "@mcpkit/test-kit/spec";
import { describe, expect, it } from "vitest";
import { isLevelEnabled, isLoggingLevel, LOGGING_LEVELS } from "./logging.js";

describe("logging levels", () => {
  it("are the schema's eight levels, least severe first", () => {
    const schemaLevels =
      (loadSchema("2026-07-28").$defs?.LoggingLevel as { enum: string[] } | undefined)?.enum ?? [];
    expect([...LOGGING_LEVELS].sort()).toEqual([...schemaLevels].sort());
    expect(LOGGING_LEVELS[0]).toBe("debug");
    expect(LOGGING_LEVELS.at(-1)).toBe("emergency");
  });

  it("pass a threshold when as severe or more", () => {
    expect(isLevelEnabled("error", "warning")).toBe(true);
    expect(isLevelEnabled("warning", "warning")).toBe(true);
    expect(isLevelEnabled("info", "warning")).toBe(false);
    expect(isLevelEnabled("emergency", "debug")).toBe(true);
    expect(isLevelEnabled("bogus" as never, "debug")).toBe(false);
    expect(isLoggingLevel("notice")).toBe(true);
    expect(isLoggingLevel("verbose")).toBe(false);
  });
});
