import { describe, expect, it } from "vitest";
import { errorOf, makeCore, modernCall } from "../test/unit-kit.js";
import { checkCompleteParams, complete } from "./completion.js";

describe("completion/complete", () => {
  const core = makeCore();
  core.registry.addPrompt(
    "p",
    {
      arguments: [{ name: "lang" }],
      complete: { lang: (v) => ["ts", "tsx", "go"].filter((x) => x.startsWith(v)) },
    },
    () => "x",
  );
  core.registry.addTemplate(
    "f://{n}",
    { name: "f", complete: { n: () => Array.from({ length: 150 }, (_, i) => `${i}`) } },
    () => "",
  );
  const call = modernCall("completion/complete");

  it("asks the completer of a prompt or template argument, at most 100 values", async () => {
    const ref = { type: "ref/prompt", name: "p" };
    expect(await complete(core, call, { ref, argument: { name: "lang", value: "t" } })).toEqual({
      completion: { values: ["ts", "tsx"], total: 2, hasMore: false },
    });
    const many = await complete(core, call, {
      ref: { type: "ref/resource", uri: "f://{n}" },
      argument: { name: "n", value: "" },
    });
    expect(many.completion).toMatchObject({ total: 150, hasMore: true });
    const none = await complete(core, call, { ref, argument: { name: "other", value: "" } });
    expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it("says -32602 for malformed params and unknown references", async () => {
    expect(() => checkCompleteParams({ ref: {} })).toThrow(
      "completion/complete needs ref and argument { name, value }",
    );
    const unknown = await errorOf(() =>
      complete(core, call, { ref: { type: "ref/prompt", name: "q" }, argument: { name: "a", value: "" } }),
    );
    expect(unknown.toJSON()).toEqual({ code: -32602, message: "Unknown prompt: q" });
    const kind = await errorOf(() =>
      complete(core, call, { ref: { type: "ref/x" }, argument: { name: "a", value: "" } }),
    );
    expect(kind.message).toBe("Unknown completion reference type: ref/x");
  });
});
