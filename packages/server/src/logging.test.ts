import { describe, expect, it } from "vitest";
import { fakeConn, legacyCall, makeCore } from "../test/unit-kit.js";
import { checkSetLevelParams, setLevel } from "./logging.js";

describe("logging/setLevel", () => {
  it("sets the session's threshold", () => {
    const conn = fakeConn({});
    expect(setLevel(makeCore(), legacyCall("logging/setLevel"), { level: "warning" }, conn)).toEqual({});
    expect(conn.session!.logLevel).toBe("warning");
  });

  it("refuses what is not a level", () => {
    expect(() => checkSetLevelParams({ level: "loud" })).toThrow('Invalid log level: "loud"');
    expect(() => checkSetLevelParams({ level: "debug" })).not.toThrow();
  });
});
