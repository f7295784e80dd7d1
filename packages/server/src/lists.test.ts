import { describe, expect, it } from "vitest";
import { errorOf, legacyCall, makeCore, modernCall } from "../test/unit-kit.js";
import { listPrompts, listTools, page } from "./lists.js";

describe("lists", () => {
  it("pages with an opaque cursor bound to the list", async () => {
    const core = makeCore({ pageSize: 2 });
    for (const name of ["a", "b", "c"]) core.registry.addTool(name, {}, () => "");
    const first = page(core, "tools", "tools", {});
    expect((first.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["a", "b"]);
    const second = page(core, "tools", "tools", { cursor: first.nextCursor });
    expect(second).toEqual({ tools: [expect.objectContaining({ name: "c" })] });
    const foreign = await errorOf(() => page(core, "prompts", "prompts", { cursor: first.nextCursor }));
    expect(foreign.toJSON()).toEqual({ code: -32602, message: "Invalid cursor" });
  });

  it("adds cache hints in the modern era only, and legacy tools keep object-rooted outputSchemas", () => {
    const core = makeCore({ cache: { ttlMs: 10, scope: "private" } });
    core.registry.addTool("n", { outputSchema: { type: "number" } }, () => 1);
    core.registry.addPrompt("p", {}, () => "");
    expect(listTools(core, modernCall("tools/list"), {})).toMatchObject({
      tools: [{ name: "n", outputSchema: { type: "number" } }],
      ttlMs: 10,
      cacheScope: "private",
    });
    const legacy = listTools(core, legacyCall("tools/list"), {});
    expect(legacy.ttlMs).toBeUndefined();
    expect((legacy.tools as Array<Record<string, unknown>>)[0]!.outputSchema).toBeUndefined();
    expect(listPrompts(core, legacyCall("prompts/list"), {})).toEqual({ prompts: [{ name: "p" }] });
  });
});
