// A small app server for the package's tests: one view, one app tool, one app-only tool, one model-only
// tool, and a tool that reports whether its caller renders apps.
import { text } from "@mcpkit/protocol";
import { createServer, type Server } from "@mcpkit/server";
import { registerAppResource, registerAppTool, rendersApps } from "../src/index.js";

/** The view the fixture serves (a marker is enough: these tests do not render it). */
export const VIEW_HTML = "<!DOCTYPE html><html><body><p>view</p></body></html>";
export const VIEW_URI = "ui://fixture/view";

/** Builds the fixture server; `blob: true` serves the view as base64. */
export function createFixtureServer(options: { blob?: boolean } = {}): Server {
  const server = createServer({ name: "apps-fixture", version: "1.0.0" });
  registerAppResource(server, VIEW_URI, {
    name: "fixture_view",
    description: "The fixture's view",
    html: options.blob ? new TextEncoder().encode(VIEW_HTML) : VIEW_HTML,
    ui: {
      csp: { connectDomains: ["https://api.example.com"] },
      permissions: { clipboardWrite: {} },
      domain: "a904794854a047f6.sandbox.example",
      prefersBorder: true,
    },
  });
  registerAppTool(
    server,
    "show",
    { description: "Shows the view", ui: { resourceUri: VIEW_URI } },
    (_args, ctx) => ({
      content: [text(rendersApps(ctx) ? "rendered" : "text only")],
      structuredContent: { ok: true },
    }),
  );
  registerAppTool(
    server,
    "refresh",
    { description: "App-only refresh", ui: { resourceUri: VIEW_URI, visibility: ["app"] } },
    () => "refreshed",
  );
  registerAppTool(
    server,
    "model_only",
    { description: "Model-only", ui: { resourceUri: VIEW_URI, visibility: ["model"] } },
    () => "model",
  );
  return server;
}
