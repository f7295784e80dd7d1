import { describe, expect, it } from "vitest";
import { redactTraceArguments } from "./trace-redaction.js";

const LINE = "+    3.1ms → client stdio modern 2026-07-28 tools/call #3 112B ";

describe("trace redaction", () => {
  it("[issue-25.weak] replaces argument values, keeps keys and nesting", () => {
    const body =
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"login","arguments":{"user":"ada","password":"hunter2","n":42,"deep":{"list":["a",true,null]}}}}';
    expect(redactTraceArguments(LINE + body)).toBe(
      `${LINE}{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"login","arguments":{"user":"***","password":"***","n":"***","deep":{"list":["***","***","***"]}}}}`,
    );
  });

  it("works on a body the trace cut short", () => {
    const cut = `${LINE}{"method":"tools/call","params":{"name":"x","arguments":{"token":"sk-abcdef…`;
    expect(redactTraceArguments(cut)).toBe(
      `${LINE}{"method":"tools/call","params":{"name":"x","arguments":{"token":"***"…`,
    );
  });

  it("leaves lines without an arguments object alone (prompt argument lists included)", () => {
    const list = `${LINE}{"result":{"prompts":[{"name":"p","arguments":[{"name":"city","required":true}]}]}}`;
    expect(redactTraceArguments(list)).toBe(list);
  });
});
