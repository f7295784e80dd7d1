import { createServer } from "@mcpkit/server";
import { connectInProcess } from "@mcpkit/testing";
import { describe, expect, it } from "vitest";
import { appExtension, appSupportOf, registerAppResource, rendersApps, UI_MIME_TYPE } from "../src/index.js";
import { createFixtureServer, VIEW_HTML, VIEW_URI } from "./fixture-server.js";

const ERAS = ["legacy", "modern"] as const;

describe("registerAppResource", () => {
  it("lists and serves the view with its mime type and _meta.ui on both", async () => {
    await using client = await connectInProcess(createFixtureServer());
    const listed = (await client.listResources()).find((r) => r.uri === VIEW_URI);
    expect(listed?.mimeType).toBe(UI_MIME_TYPE);
    expect(listed?._meta?.ui).toEqual({
      csp: { connectDomains: ["https://api.example.com"] },
      permissions: { clipboardWrite: {} },
      domain: "a904794854a047f6.sandbox.example",
      prefersBorder: true,
    });
    const read = await client.readResource(VIEW_URI);
    expect(read.contents).toEqual([
      { uri: VIEW_URI, mimeType: UI_MIME_TYPE, text: VIEW_HTML, _meta: listed?._meta },
    ]);
  });

  it("sends bytes as a base64 blob", async () => {
    await using client = await connectInProcess(createFixtureServer({ blob: true }));
    const [content] = (await client.readResource(VIEW_URI)).contents;
    expect(content && "blob" in content ? atob(content.blob) : undefined).toBe(VIEW_HTML);
  });

  it("reads a function source on every read, and refuses a URI that is not ui://", async () => {
    const server = createServer({ name: "s", version: "1" });
    let reads = 0;
    registerAppResource(server, "ui://s/v", { name: "v", html: () => `<p>${++reads}</p>` });
    await using client = await connectInProcess(server);
    expect((await client.readResource("ui://s/v")).contents[0]).toMatchObject({ text: "<p>1</p>" });
    expect((await client.readResource("ui://s/v")).contents[0]).toMatchObject({ text: "<p>2</p>" });
    expect(() => registerAppResource(server, "https://s/v", { name: "v", html: "" })).toThrow(/ui:\/\//);
  });
});

describe("registerAppTool", () => {
  it("links the tool to its view, nested and flat, with the default visibility", async () => {
    await using client = await connectInProcess(createFixtureServer());
    const tools = await client.listTools();
    expect(tools.find((t) => t.name === "show")?._meta).toEqual({
      ui: { resourceUri: VIEW_URI, visibility: ["model", "app"] },
      "ui/resourceUri": VIEW_URI,
    });
    expect(tools.find((t) => t.name === "refresh")?._meta?.ui).toEqual({
      resourceUri: VIEW_URI,
      visibility: ["app"],
    });
  });
});

describe("the caller's MCP Apps support reaches the handler", () => {
  for (const era of ERAS) {
    it(`[${era}] from capabilities.extensions, with its mimeTypes`, async () => {
      const server = createFixtureServer();
      await using host = await connectInProcess(server, {
        versionNegotiation: era,
        capabilities: { extensions: appExtension() },
      });
      await using plain = await connectInProcess(server, { versionNegotiation: era });
      expect(host.era).toBe(era);
      expect((await host.callTool("show")).content).toBe("rendered");
      expect((await plain.callTool("show")).content).toBe("text only");
    });
  }

  it("reads mimeTypes and ignores a malformed entry", () => {
    expect(appSupportOf({ extensions: appExtension(["text/html;profile=mcp-app", "x"]) })).toEqual({
      mimeTypes: ["text/html;profile=mcp-app", "x"],
    });
    expect(appSupportOf({ extensions: { "io.modelcontextprotocol/ui": "yes" as never } })).toBeUndefined();
    expect(rendersApps({ capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } })).toBe(false);
  });
});
