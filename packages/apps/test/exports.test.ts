import { describe, expect, it } from "vitest";
import * as host from "../src/host.js";
import * as root from "../src/index.js";
import * as node from "../src/node.js";

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(root).sort()).toMatchInlineSnapshot(`
      [
        "FLAT_RESOURCE_URI_KEY",
        "UI_EXTENSION_ID",
        "UI_MIME_TYPE",
        "UI_PROTOCOL_VERSIONS",
        "appExtension",
        "appSupportOf",
        "registerAppResource",
        "registerAppTool",
        "rendersApps",
        "singleFileHtml",
      ]
    `);
    expect(Object.keys(host).sort()).toMatchInlineSnapshot(`
      [
        "UI_EXTENSION_ID",
        "UI_MIME_TYPE",
        "UI_PROTOCOL_VERSIONS",
        "appExtension",
        "createViewBridge",
        "isAppCallable",
        "loadAppResource",
        "permissionsAllow",
        "renderApp",
        "restrictCsp",
        "sandboxProxyHeaders",
        "sandboxProxyHtml",
        "toCallToolResult",
        "viewCsp",
      ]
    `);
    expect(Object.keys(node).sort()).toMatchInlineSnapshot(`
      [
        "htmlFromFile",
      ]
    `);
  });
});
