import { describe, expect, it } from "vitest";
import { permissionsAllow, restrictCsp, viewCsp } from "../src/host.js";

describe("viewCsp", () => {
  it("is the spec's restrictive default without csp", () => {
    expect(viewCsp()).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; " +
        "form-action 'none'; base-uri 'self'",
    );
  });

  it("adds each declared origin to its directives only", () => {
    const csp = viewCsp({
      connectDomains: ["https://api.example.com", "wss://rt.example.com"],
      resourceDomains: ["https://*.cdn.example"],
      frameDomains: ["https://player.example"],
      baseUriDomains: ["https://base.example"],
    });
    expect(csp).toContain("connect-src https://api.example.com wss://rt.example.com;");
    expect(csp).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example;");
    expect(csp).toContain("img-src 'self' data: https://*.cdn.example;");
    expect(csp).toContain("frame-src https://player.example;");
    expect(csp).toContain("base-uri https://base.example");
  });

  it("is never loosened by an entry that is not an origin", () => {
    const csp = viewCsp({
      connectDomains: [
        "*",
        "'unsafe-eval'",
        "https://a.example; script-src *",
        "https://ok.example",
        "data:",
        7 as never,
      ],
      resourceDomains: ["https://x.example 'unsafe-eval'"],
    });
    expect(csp).toContain("connect-src https://ok.example;");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/(^|\s)\*(;|\s|$)/);
    expect(csp.split("; ")).toHaveLength(11);
  });
});

describe("permissionsAllow and restrictCsp", () => {
  it("maps permissions to the allow attribute", () => {
    expect(permissionsAllow({ camera: {}, clipboardWrite: {} })).toBe("camera; clipboard-write");
    expect(permissionsAllow(undefined)).toBe("");
  });

  it("only removes origins", () => {
    const declared = { connectDomains: ["https://a.example", "https://b.example"] };
    expect(restrictCsp(declared, (_kind, origin) => origin !== "https://b.example")).toEqual({
      connectDomains: ["https://a.example"],
    });
    expect(restrictCsp(declared, () => true)).toEqual(declared);
  });
});
