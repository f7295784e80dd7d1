import { McpError, MODERN_METHODS } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { makeCore, modernCall } from "../test/unit-kit.js";
import { buildMethodTable, declares, METHOD_TABLE } from "./method-table.js";

describe("the method table", () => {
  it("takes each method's eras from protocol's tables", () => {
    const eras = (m: string) => {
      const r = METHOD_TABLE.get(m)!;
      return [r.legacy && "legacy", r.modern && "modern"].filter(Boolean);
    };
    expect(eras("tools/call")).toEqual(["legacy", "modern"]);
    expect(eras("ping")).toEqual(["legacy"]);
    expect(eras("logging/setLevel")).toEqual(["legacy"]);
    expect(eras("resources/subscribe")).toEqual(["legacy"]);
    expect(eras("server/discover")).toEqual(["modern"]);
    expect(eras("subscriptions/listen")).toEqual(["modern"]);
    // 2025-11-25 has tasks/get too, but the server serves only the extension's.
    expect(eras("tasks/get")).toEqual(["modern"]);
    expect(METHOD_TABLE.has("initialize")).toBe(false);
  });

  it("takes what a method requires from the capability protocol names", () => {
    const requires = (m: string) => METHOD_TABLE.get(m)!.requires;
    expect(requires("tools/call")).toBe("tools");
    expect(requires("prompts/get")).toBe("prompts");
    expect(requires("resources/subscribe")).toBe("resources");
    expect(requires("completion/complete")).toBe("completions");
    expect(requires("tasks/cancel")).toBe("tasks");
    expect(requires("logging/setLevel")).toBeUndefined();
    expect(requires("subscriptions/listen")).toBeUndefined();
  });

  it("serves every request a 2026-07-28 client can send", () => {
    const requests = Object.values(MODERN_METHODS)
      .filter((info) => info.kind === "request")
      .map((info) => info.method);
    expect(requests.filter((m) => !METHOD_TABLE.get(m)?.modern)).toEqual([]);
  });

  it("checks params before the handler runs, with the spec's -32602", () => {
    const check = METHOD_TABLE.get("tools/call")!.paramsCheck!;
    expect(() => check({}, modernCall("tools/call"))).toThrow("tools/call needs params.name");
    expect(() => check({ name: "x" }, modernCall("tools/call"))).not.toThrow();
    const listen = METHOD_TABLE.get("subscriptions/listen")!.paramsCheck!;
    const error = (() => {
      try {
        listen({ notifications: [] }, modernCall("subscriptions/listen"));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });

  it("refuses rows protocol does not know or a client cannot send", () => {
    const handler = () => ({});
    expect(() => buildMethodTable({ "tools/fly": { handler } })).toThrow("not a method of the protocol");
    expect(() => buildMethodTable({ "roots/list": { handler } })).toThrow("not a request a client sends");
    expect(() => buildMethodTable({ "notifications/progress": { handler } })).toThrow(
      "not a request a client sends",
    );
  });

  it("declares() reads the registry and the tasks setting", () => {
    const core = makeCore();
    expect(declares(core, "tools")).toBe(false);
    expect(declares(core, "tasks")).toBe(false);
    core.registry.addTool("t", {}, () => "ok");
    expect(declares(core, "tools")).toBe(true);
    expect(declares(makeCore({ tasks: {} }), "tasks")).toBe(true);
  });
});
