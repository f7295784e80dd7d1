import { describe, expect, it } from "vitest";
import { toolUiResourceUri, toolVisibility } from "./tool-ui.js";

describe("toolUiResourceUri", () => {
  it("reads _meta.ui.resourceUri, then the deprecated flat key, and only ui:// URIs", () => {
    expect(toolUiResourceUri({ _meta: { ui: { resourceUri: "ui://a/view" } } })).toBe("ui://a/view");
    expect(toolUiResourceUri({ _meta: { "ui/resourceUri": "ui://a/flat" } })).toBe("ui://a/flat");
    expect(
      toolUiResourceUri({ _meta: { ui: { resourceUri: "https://evil.example/view" } } }),
    ).toBeUndefined();
    expect(toolUiResourceUri({})).toBeUndefined();
  });
});

describe("toolVisibility", () => {
  it("defaults to model and app, and drops unknown values", () => {
    expect(toolVisibility({})).toEqual(["model", "app"]);
    expect(toolVisibility({ _meta: { ui: { visibility: ["app"] } } })).toEqual(["app"]);
    expect(toolVisibility({ _meta: { ui: { visibility: ["root", "model"] } } })).toEqual(["model"]);
  });
});
