import { ErrorCode, JsonRpcError } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { isModernError, McpError, McpErrorCode, readUnsupportedVersionData } from "./errors.js";

describe("McpErrorCode", () => {
  it("re-lists the JSON-RPC codes and adds MCP's", () => {
    for (const [name, code] of Object.entries(ErrorCode)) {
      expect(McpErrorCode[name as keyof typeof McpErrorCode]).toBe(code);
    }
    expect(McpErrorCode).toMatchObject({
      ResourceNotFound: -32002,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
      UrlElicitationRequired: -32042,
    });
  });
});

describe("McpError", () => {
  it("is a JsonRpcError named McpError", () => {
    const e = McpError.invalidParams("bad cursor", { cursor: "x" });
    expect(e).toBeInstanceOf(JsonRpcError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("McpError");
    expect(e.code).toBe(-32602);
  });

  it("survives a wire round trip", () => {
    const sent = McpError.unsupportedProtocolVersion(["2026-07-28", "2025-11-25"], "1999-01-01");
    const wire = JSON.parse(JSON.stringify({ error: sent })).error;
    expect(wire).toEqual({
      code: -32022,
      message: "Unsupported protocol version: 1999-01-01",
      data: { supported: ["2026-07-28", "2025-11-25"], requested: "1999-01-01" },
    });
    const received = McpError.fromWire(wire);
    expect(received).toBeInstanceOf(McpError);
    expect(received.toJSON()).toEqual(wire);
    expect(McpError.fromWire("garbage").code).toBe(-32603);
  });

  it("wraps a JsonRpcError keeping it as the cause", () => {
    const original = new JsonRpcError(-32601, "Method not found", { m: 1 });
    const wrapped = McpError.fromJsonRpcError(original);
    expect(wrapped).toBeInstanceOf(McpError);
    expect([wrapped.code, wrapped.message, wrapped.data, wrapped.cause]).toEqual([
      -32601,
      "Method not found",
      { m: 1 },
      original,
    ]);
    expect(McpError.fromJsonRpcError(wrapped)).toBe(wrapped);
  });

  it("builds the named errors", () => {
    expect(McpError.missingClientCapability({ sampling: {} }).toJSON()).toEqual({
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { sampling: {} } },
    });
    expect(McpError.headerMismatch("Mcp-Name differs").toJSON()).toEqual({
      code: -32020,
      message: "Mcp-Name differs",
    });
    expect(McpError.methodNotFound("x/y").toJSON()).toEqual({
      code: -32601,
      message: "Method not found: x/y",
    });
    expect(McpError.resourceNotFound("file:///a", "modern").code).toBe(-32602);
    expect(McpError.resourceNotFound("file:///a", "legacy").code).toBe(-32002);
  });
});

describe("isModernError", () => {
  it.each([
    [{ code: -32020, message: "Header mismatch" }],
    [McpError.missingClientCapability({}).toJSON()],
    [McpError.unsupportedProtocolVersion(["2026-07-28"], "x").toJSON()],
    [{ code: -32602, message: "Missing _meta field io.modelcontextprotocol/protocolVersion" }],
    [{ code: -32602, message: "Invalid params", data: { missing: ["_meta.protocolVersion"] } }],
  ])("recognizes %j", (error) => {
    expect(isModernError(error)).toBe(true);
  });

  it.each([
    [{ code: -32601, message: "Method not found" }],
    [{ code: -32602, message: "Invalid params" }],
    // A legacy server's answer to an unsupported initialize version.
    [
      {
        code: -32602,
        message: "Unsupported protocol version",
        data: { supported: ["2025-06-18"], requested: "x" },
      },
    ],
    [{ code: -32603, message: "Internal error" }],
    [null],
    ["-32022"],
  ])("does not recognize %j", (error) => {
    expect(isModernError(error)).toBe(false);
  });

  it("reads the supported versions of a version error", () => {
    expect(readUnsupportedVersionData(McpError.unsupportedProtocolVersion(["a"], "b").toJSON())).toEqual({
      supported: ["a"],
      requested: "b",
    });
    expect(readUnsupportedVersionData({ code: -32022, message: "x" })).toBeUndefined();
  });
});
