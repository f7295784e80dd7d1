import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  collectParamHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  findXMcpHeaderProblem,
  Header,
  mcpNameFor,
  validateXMcpHeaderAnnotations,
} from "./headers.js";
import type { ToolInputSchema } from "./types/tools.js";

describe("encodeHeaderValue / decodeHeaderValue", () => {
  it("refuses unpadded base64 in the sentinel form", () => {
    expect(decodeHeaderValue("=?base64?SGVsbG8=?=")).toBe("Hello");
    expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeUndefined();
  });

  // The encoding table of the 2026-07-28 Streamable HTTP transport, §Value Encoding.
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("encodes %j as the spec shows", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toBe(value);
  });

  it("encodes tabs and other control characters, keeps inner spaces plain", () => {
    expect(encodeHeaderValue("a\tb")).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue("a\u007fb")).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue("a b")).toBe("a b");
    expect(encodeHeaderValue("")).toBe("");
  });

  it("round-trips any string of code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const encoded = encodeHeaderValue(s);
        expect(encoded).toMatch(/^[\x20-\x7e]*$/);
        expect(decodeHeaderValue(encoded)).toBe(s);
      }),
    );
  });

  it("rejects malformed values", () => {
    expect(decodeHeaderValue("=?base64?not base64!?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined(); // 0xFF is not UTF-8
    expect(decodeHeaderValue("caf\u00e9")).toBeUndefined();
    expect(decodeHeaderValue("=?base64??=")).toBe("");
  });
});

describe("mcpNameFor", () => {
  it("takes the name, uri or taskId the method calls for", () => {
    expect(mcpNameFor("tools/call", { name: "get_weather" })).toBe("get_weather");
    expect(mcpNameFor("prompts/get", { name: "review" })).toBe("review");
    expect(mcpNameFor("resources/read", { uri: "file:///a" })).toBe("file:///a");
    expect(mcpNameFor("tasks/get", { taskId: "t1" })).toBe("t1");
    expect(mcpNameFor("tasks/update", { taskId: "t1" })).toBe("t1");
    expect(mcpNameFor("tasks/cancel", { taskId: "t1" })).toBe("t1");
  });
  it("gives nothing for other methods or missing values", () => {
    expect(mcpNameFor("tools/list", { name: "x" })).toBeUndefined();
    expect(mcpNameFor("tools/call", {})).toBeUndefined();
    expect(mcpNameFor("tools/call", undefined)).toBeUndefined();
  });
});

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type: "object", properties, ...extra }) as ToolInputSchema;

describe("x-mcp-header annotations", () => {
  it("accepts primitives reachable through properties, including nested objects", () => {
    const s = schema({
      region: { type: "string", "x-mcp-header": "Region" },
      count: { type: "integer", "x-mcp-header": "Count" },
      dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
      opts: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } },
      // A property *named* x-mcp-header is not an annotation.
      "x-mcp-header": { type: "number" },
    });
    expect(findXMcpHeaderProblem(s)).toBeUndefined();
    expect(validateXMcpHeaderAnnotations(s)).toBe(true);
    expect(validateXMcpHeaderAnnotations(schema({}))).toBe(true);
  });

  it.each([
    ["on a number", schema({ n: { type: "number", "x-mcp-header": "N" } })],
    ["on an object", schema({ o: { type: "object", "x-mcp-header": "O" } })],
    ["without a type", schema({ o: { "x-mcp-header": "O" } })],
    ["empty", schema({ a: { type: "string", "x-mcp-header": "" } })],
    ["not a token", schema({ a: { type: "string", "x-mcp-header": "A B" } })],
    ["with a CR", schema({ a: { type: "string", "x-mcp-header": "A\r" } })],
    ["not a string", schema({ a: { type: "string", "x-mcp-header": 1 } })],
    [
      "duplicated case-insensitively",
      schema({
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "region" },
      }),
    ],
    ["under items", schema({ a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } })],
    ["under anyOf", schema({ a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } })],
    ["under $defs", schema({}, { $defs: { a: { type: "string", "x-mcp-header": "A" } } })],
    ["on the root", schema({}, { "x-mcp-header": "Root" })],
  ])("rejects an annotation %s", (_why, s) => {
    expect(typeof findXMcpHeaderProblem(s)).toBe("string");
    expect(validateXMcpHeaderAnnotations(s)).toBe(false);
  });
});

describe("collectParamHeaders", () => {
  const s = schema({
    region: { type: "string", "x-mcp-header": "Region" },
    count: { type: "integer", "x-mcp-header": "Count" },
    dry: { type: "boolean", "x-mcp-header": "Dry" },
    opts: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } },
    plain: { type: "string" },
  });

  it("mirrors annotated arguments at their exact paths, encoded", () => {
    const headers = collectParamHeaders(s, {
      region: "us-west1",
      count: 42,
      dry: false,
      opts: { tenant: "Zürich" },
      plain: "not mirrored",
    });
    expect(headers).toEqual({
      [`${Header.ParamPrefix}region`]: "us-west1",
      [`${Header.ParamPrefix}count`]: "42",
      [`${Header.ParamPrefix}dry`]: "false",
      [`${Header.ParamPrefix}tenant`]: encodeHeaderValue("Zürich"),
    });
    expect(decodeHeaderValue(headers["mcp-param-tenant"]!)).toBe("Zürich");
  });

  it("omits missing, null and non-primitive values", () => {
    expect(collectParamHeaders(s, { region: null, count: 1.5, opts: "x" })).toEqual({});
    expect(collectParamHeaders(s, undefined)).toEqual({});
  });
});
