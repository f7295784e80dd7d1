import { describe, expect, it } from "vitest";
import { toolNameProblem } from "./tool-names.js";

describe("toolNameProblem", () => {
  it("accepts the spec's examples and names up to 128 characters", () => {
    for (const name of ["getUser", "DATA_EXPORT_v2", "admin.tools.list", "a", "x".repeat(128)]) {
      expect(toolNameProblem(name)).toBeUndefined();
    }
  });

  it("names the length rule", () => {
    expect(toolNameProblem("")).toMatch(/^length rule: .*1-128.*empty/);
    expect(toolNameProblem("x".repeat(129))).toMatch(/^length rule: .*it has 129/);
  });

  it("names the character rule and the first character that breaks it", () => {
    expect(toolNameProblem("has space")).toBe(
      'character rule: a tool name may hold only A-Z a-z 0-9 _ - . and it holds " "',
    );
    expect(toolNameProblem("a,b")).toMatch(/holds ","/);
    expect(toolNameProblem("user-profile/update")).toMatch(/holds "\/"/);
    expect(toolNameProblem("café")).toMatch(/holds "é"/);
  });
});
