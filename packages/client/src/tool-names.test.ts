import { describe, expect, it } from "vitest";
import { ToolNameWarnings } from "./tool-names.js";

describe("ToolNameWarnings", () => {
  it("warns once per tool whose name breaks the spec's rules, naming the rule", () => {
    const errors: unknown[] = [];
    const warnings = new ToolNameWarnings((e) => errors.push(e));
    const tools = [
      { name: "fine.name", inputSchema: { type: "object" } },
      { name: "has space", inputSchema: { type: "object" } },
      { name: "x".repeat(129), inputSchema: { type: "object" } },
    ] as never;
    warnings.check(tools);
    warnings.check(tools);
    expect(errors.map(String)).toEqual([
      'InvalidResultError: The server\'s tool "has space" breaks the character rule: a tool name may hold only A-Z a-z 0-9 _ - . and it holds " "',
      expect.stringMatching(/breaks the length rule: .* it has 129/),
    ]);
  });
});
