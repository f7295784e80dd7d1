import { describe, expect, it } from "vitest";
import { JsonRpcError } from "./errors.js";
import { parseMessages, serializeMessage } from "./messages.js";

describe("messages", () => {
  it("classifies each kind", () => {
    const kinds = parseMessages(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "a", params: {} },
        { jsonrpc: "2.0", method: "n" },
        { jsonrpc: "2.0", id: 1, result: { ok: true } },
        { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "nope" } },
        { jsonrpc: "1.0", id: 3, method: "old" },
      ]),
    ).map((p) => p.kind);
    expect(kinds).toEqual(["request", "notification", "success", "error", "invalid"]);
  });

  it("keeps the id of an invalid request when it can be read", () => {
    const [parsed] = parseMessages('{"jsonrpc":"2.0","id":9,"method":5}');
    expect(parsed).toMatchObject({ kind: "invalid", id: 9, error: { code: -32600 } });
  });

  it("answers unparsable JSON with -32700 and a null id", () => {
    expect(parseMessages("{nope")).toEqual([
      { kind: "invalid", id: null, error: { code: -32700, message: "Parse error" } },
    ]);
  });

  it("refuses an empty batch", () => {
    expect(parseMessages("[]")[0]).toMatchObject({ kind: "invalid", error: { code: -32600 } });
  });

  it("refuses a null request id", () => {
    expect(parseMessages('{"jsonrpc":"2.0","id":null,"method":"x"}')[0]!.kind).toBe("invalid");
  });

  it("serializes on one line", () => {
    const text = serializeMessage({ jsonrpc: "2.0", method: "x", params: { s: "a\nb" } });
    expect(text).not.toContain("\n");
  });

  it("round-trips errors to and from the wire", () => {
    const e = new JsonRpcError(-32602, "bad", { field: "x" });
    expect(JsonRpcError.fromWire(JSON.parse(JSON.stringify(e)))).toMatchObject({
      code: -32602,
      message: "bad",
      data: { field: "x" },
    });
    expect(JsonRpcError.fromWire("junk")).toMatchObject({ code: -32603 });
  });
});
