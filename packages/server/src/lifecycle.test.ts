import { describe, expect, it } from "vitest";
import { errorOf, fakeConn, makeCore } from "../test/unit-kit.js";
import { discover, initialize, ping } from "./lifecycle.js";

describe("lifecycle", () => {
  it("initialize opens a session at the requested version, batches only where the version has them", async () => {
    const core = makeCore({ instructions: "be nice" });
    const conn = fakeConn();
    const result = initialize(core, conn, { protocolVersion: "2025-03-26", capabilities: { roots: {} } });
    expect(result).toEqual({
      protocolVersion: "2025-03-26",
      capabilities: { logging: {} },
      serverInfo: { name: "unit", version: "1.0.0" },
      instructions: "be nice",
    });
    expect(conn.session).toMatchObject({ clientCapabilities: { roots: {} }, initialized: false });
    expect(conn.peer.batches).toBe(true);
    const again = await errorOf(() => initialize(core, conn, {}));
    expect(again.toJSON()).toEqual({ code: -32600, message: "The session is already initialized" });
  });

  it("initialize falls back to the latest legacy version without batches", () => {
    const conn = fakeConn();
    const result = initialize(makeCore(), conn, { protocolVersion: "1999-01-01" }) as Record<string, unknown>;
    expect(result.protocolVersion).toBe("2025-11-25");
    expect(conn.peer.batches).toBe(false);
  });

  it("discover states versions, capabilities, cache hints and the server's info", () => {
    const result = discover(makeCore({ cache: { ttlMs: 60 } }));
    expect(result.supportedVersions).toContain("2026-07-28");
    expect(result.supportedVersions).toContain("2024-11-05");
    expect(result).toMatchObject({
      capabilities: { logging: {} },
      ttlMs: 60,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "unit" } },
    });
    expect(ping()).toEqual({});
  });
});
