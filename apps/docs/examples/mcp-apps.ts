// MCP Apps (the `io.modelcontextprotocol/ui` extension, `@mcpkit/apps`): a tool ships an HTML view. The
// view is a `ui://` resource (`registerAppResource`), the tool names it (`registerAppTool`), and the
// handler asks `rendersApps(ctx)` whether the caller renders views — text that stands on its own otherwise.
// A host declares the extension with `appExtension()` and renders the view with `@mcpkit/apps/host`.
// Run: pnpm --filter @mcpkit/docs example examples/mcp-apps.ts
import { appExtension, registerAppResource, registerAppTool, rendersApps } from "@mcpkit/apps";
import { createServer } from "@mcpkit/server";
import { connectInProcess } from "@mcpkit/testing";

const server = createServer({ name: "weather", version: "1.0.0" });
registerAppResource(server, "ui://weather/dashboard", {
  name: "weather_dashboard",
  html: "<!doctype html><title>Weather</title><p id=sky></p>",
  ui: { prefersBorder: true },
});
registerAppTool(
  server,
  "forecast",
  { description: "The forecast, with a dashboard", ui: { resourceUri: "ui://weather/dashboard" } },
  (_args, ctx) => ({
    content: [{ type: "text", text: rendersApps(ctx) ? "Shown in the dashboard." : "Sunny, 21 °C." }],
    structuredContent: { temperature: 21, sky: "sunny" },
  }),
);

await using host = await connectInProcess(server, { capabilities: { extensions: appExtension() } });
const [tool] = await host.listTools();
console.log("tool ui:", JSON.stringify(tool?._meta?.ui));
const [view] = (await host.readResource("ui://weather/dashboard")).contents;
console.log("view:", view?.mimeType, view && "text" in view ? `${view.text.length} chars` : "blob");
console.log("host gets:", (await host.callTool("forecast")).content);

await using plain = await connectInProcess(server);
console.log("plain client gets:", (await plain.callTool("forecast")).content);
