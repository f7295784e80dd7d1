import { describe, expect, it } from "vitest";
import { modernRequestHeaders } from "./request-headers.js";

const schema = {
  type: "object",
  properties: { region: { type: "string", "x-mcp-header": "Region" } },
} as const;

describe("modernRequestHeaders", () => {
  it("gives the version, the method, the encoded name and a tools/call's Mcp-Param-* headers", () => {
    expect(
      modernRequestHeaders("2026-07-28", "tools/call", { name: "ünï", arguments: { region: "eu" } }, schema),
    ).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "=?base64?w7xuw68=?=",
      "mcp-param-region": "eu",
    });
  });

  it("gives no Mcp-Name to a method without one, and no Mcp-Param-* without the schema", () => {
    expect(modernRequestHeaders("2026-07-28", "tools/list", {})).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    });
    expect(
      modernRequestHeaders("2026-07-28", "tools/call", { name: "a", arguments: { region: "eu" } }),
    ).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "a",
    });
  });
});
