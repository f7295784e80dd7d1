import { describe, expect, it } from "vitest";
import { errorOf, legacyCall, makeCore, modernCall } from "../test/unit-kit.js";
import { readResource } from "./resources.js";

describe("resources/read", () => {
  const core = makeCore({ cache: { ttlMs: 5000 } });
  core.registry.addResource("mem://a", { name: "a" }, () => "alpha");
  core.registry.addTemplate("mem://items/{id}", { name: "item" }, (_uri, vars) =>
    vars.id === "0" ? undefined : `item ${vars.id}`,
  );

  it("reads a static resource; a modern complete result carries the cache hints", async () => {
    const contents = [{ uri: "mem://a", mimeType: "text/plain", text: "alpha" }];
    expect(await readResource(core, modernCall("resources/read"), { uri: "mem://a" })).toEqual({
      contents,
      ttlMs: 5000,
      cacheScope: "public",
    });
    expect(await readResource(core, legacyCall("resources/read"), { uri: "mem://a" })).toEqual({ contents });
  });

  it("reads through a template and says not-found when nothing serves the URI", async () => {
    const item = await readResource(core, legacyCall("resources/read"), { uri: "mem://items/7" });
    // A template read defaults to text/plain, as a static resource does.
    expect(item.contents).toEqual([{ uri: "mem://items/7", mimeType: "text/plain", text: "item 7" }]);
    const gone = await errorOf(() =>
      readResource(core, modernCall("resources/read"), { uri: "mem://items/0" }),
    );
    const none = await errorOf(() => readResource(core, modernCall("resources/read"), { uri: "mem://zzz" }));
    expect(gone.code).toBe(none.code);
    expect(none.message).toContain("mem://zzz");
  });
});
