import { describe, expect, it } from "vitest";
import { errorOf, makeCore } from "../test/unit-kit.js";
import { finishToolResult } from "./tool-output.js";

describe("finishToolResult", () => {
  const core = makeCore();
  core.registry.addTool("n", { outputSchema: { type: "number" } }, () => 1);
  core.registry.addTool(
    "o",
    { outputSchema: { type: "object", properties: { a: { type: "number" } } } },
    () => 1,
  );
  const n = core.registry.tools.get("n")!;
  const o = core.registry.tools.get("o")!;

  it("checks structuredContent against the outputSchema", async () => {
    expect(await finishToolResult(core, o, "modern", { a: 1 })).toEqual({
      content: [{ type: "text", text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    const error = await errorOf(() => finishToolResult(core, o, "modern", { a: "x" }));
    expect(error.toJSON()).toEqual({ code: -32603, message: "Internal error" });
    expect(String(core.logged.at(-1)?.[0])).toContain("fails its outputSchema");
  });

  it("drops a non-object structuredContent before 2026-07-28", async () => {
    expect(await finishToolResult(core, n, "modern", 5)).toMatchObject({ structuredContent: 5 });
    expect(await finishToolResult(core, n, "legacy", 5)).toEqual({ content: [{ type: "text", text: "5" }] });
  });

  it("does not check an isError result", async () => {
    const result = { content: [{ type: "text" as const, text: "no" }], isError: true };
    expect(await finishToolResult(core, o, "modern", result)).toEqual(result);
  });
});
