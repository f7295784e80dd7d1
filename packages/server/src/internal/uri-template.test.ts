import { describe, expect, it } from "vitest";
import { errorOf, legacyCall, makeCore } from "../../test/unit-kit.js";
import { readResource } from "../resources.js";
import { compileUriTemplate } from "./uri-template.js";

describe("[issue-25.weak] template variables cannot carry a path", () => {
  it("[issue-25.weak] a {name} read of ..%2F..%2F..%2Fetc%2Fpasswd reaches no handler: resource not found", async () => {
    const core = makeCore();
    const seen: string[] = [];
    core.registry.addTemplate("files://docs/{name}", { name: "doc" }, (_uri, vars) => {
      seen.push(String(vars.name));
      return `doc ${vars.name}`;
    });
    const attacks = [
      "files://docs/..%2F..%2F..%2Fetc%2Fpasswd",
      "files://docs/..",
      "files://docs/%2E%2E",
      "files://docs/..%5C..%5Cwindows%5Cwin.ini",
      "files://docs/a%00b",
    ];
    for (const uri of attacks) {
      const error = await errorOf(() => readResource(core, legacyCall("resources/read"), { uri }));
      expect({ uri, code: error.code }).toEqual({ uri, code: -32002 });
    }
    expect(seen).toEqual([]);
    const ok = await readResource(core, legacyCall("resources/read"), { uri: "files://docs/read%20me.md" });
    expect((ok.contents as unknown[])[0]).toMatchObject({ text: "doc read me.md" });
  });

  it("[issue-25.weak] follows RFC 6570: only {+x} and {#x} may carry slashes; {.x} {/x} {;x} {?x} may not", () => {
    expect(compileUriTemplate("f://{+path}").match("f://a/b/../c")).toEqual({ path: "a/b/../c" });
    expect(compileUriTemplate("f://x{#frag}").match("f://x#a/b")).toEqual({ frag: "a/b" });
    expect(compileUriTemplate("f://x{/seg}").match("f://x/..%2Fetc")).toBeUndefined();
    expect(compileUriTemplate("f://x{.ext}").match("f://x.%2E%2E")).toBeUndefined();
    expect(compileUriTemplate("f://x{;p}").match("f://x;a%2Fb")).toBeUndefined();
    expect(compileUriTemplate("f://x{?q}").match("f://x?q=..%2F..")).toBeUndefined();
    expect(compileUriTemplate("f://x{?q}").match("f://x?q=plain")).toEqual({ q: "plain" });
    expect(compileUriTemplate("f://{a},{b}").match("f://1,2")).toEqual({ a: "1", b: "2" });
  });
});
