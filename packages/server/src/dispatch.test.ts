import { describe, expect, it } from "vitest";
import { errorOf, fakeConn, fakeRctx, makeCore, V } from "../test/unit-kit.js";
import { dispatch } from "./dispatch.js";

const meta = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": {},
  ...extra,
});

describe("dispatch", () => {
  it("refuses params and _meta that are not objects with -32602 (no HTTP hint in data: statuses are the HTTP handler's)", async () => {
    const core = makeCore();
    const a = await errorOf(() => dispatch(core, fakeConn(), [1], fakeRctx("tools/list")));
    expect(a.toJSON()).toEqual({
      code: -32602,
      message: "Invalid params: tools/list takes an object as params",
    });
    const b = await errorOf(() => dispatch(core, fakeConn(), { _meta: 1 }, fakeRctx("tools/list")));
    expect(b.message).toBe("Invalid params: params._meta must be an object");
  });

  it("answers a modern request from the table and marks its result complete", () => {
    const core = makeCore();
    core.registry.addTool("t", {}, () => "ok");
    const conn = fakeConn();
    const result = dispatch(core, conn, { _meta: meta() }, fakeRctx("tools/list"));
    // Lists are answered synchronously.
    expect(result).toMatchObject({ tools: [{ name: "t" }], resultType: "complete", ttlMs: 0 });
    expect(conn.era).toBe("modern");
  });

  it("says -32601 for a method the era lacks or the server did not declare", async () => {
    const core = makeCore();
    const ping = await errorOf(() => dispatch(core, fakeConn(), { _meta: meta() }, fakeRctx("ping")));
    expect(ping.code).toBe(-32601);
    const tools = await errorOf(() => dispatch(core, fakeConn(), { _meta: meta() }, fakeRctx("tools/call")));
    expect(tools.code).toBe(-32601);
    const legacy = await errorOf(() => dispatch(core, fakeConn({}), {}, fakeRctx("server/discover")));
    expect(legacy.code).toBe(-32601);
  });

  it("checks the modern _meta before looking the method up", async () => {
    const core = makeCore();
    const noCaps = await errorOf(() =>
      dispatch(
        core,
        fakeConn(),
        { _meta: { "io.modelcontextprotocol/protocolVersion": V } },
        fakeRctx("no/such"),
      ),
    );
    expect(noCaps.toJSON()).toEqual({
      code: -32602,
      message: 'Missing _meta["io.modelcontextprotocol/clientCapabilities"]',
    });
    const level = await errorOf(() =>
      dispatch(
        core,
        fakeConn(),
        { _meta: meta({ "io.modelcontextprotocol/logLevel": "loud" }) },
        fakeRctx("x"),
      ),
    );
    expect(level.message).toBe('Invalid _meta["io.modelcontextprotocol/logLevel"]: "loud"');
  });

  it("serves a legacy session, and before any session only initialize and ping", async () => {
    const core = makeCore();
    const conn = fakeConn();
    expect(dispatch(core, conn, {}, fakeRctx("ping"))).toEqual({});
    const early = await errorOf(() => dispatch(core, conn, {}, fakeRctx("tools/list")));
    expect(early.toJSON()).toMatchObject({ code: -32602 });
    expect(early.toJSON().data).toBeUndefined();
    const init = dispatch(core, conn, { protocolVersion: "2025-06-18" }, fakeRctx("initialize"));
    expect(init).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "unit" } });
    expect(conn.era).toBe("legacy");
    expect(dispatch(core, conn, { level: "error" }, fakeRctx("logging/setLevel"))).toEqual({});
    expect(conn.session?.logLevel).toBe("error");
  });
});
