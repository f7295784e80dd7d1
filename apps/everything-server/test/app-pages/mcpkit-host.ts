// The test page of a host built on @mcpkit/apps/host: a real @mcpkit/client over HTTP to the everything
// server, the counter app rendered behind the sandbox proxy. Bundled for the browser by the test; what
// the hooks saw is kept in window.hostLog for the test to read.
import { type AppView, appExtension, renderApp, toCallToolResult } from "@mcpkit/apps/host";
import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";

declare global {
  interface Window {
    hostLog: Array<[string, unknown]>;
    hostReady: Promise<string>;
    renderSilent: (sandboxUrl: string, timeoutMs: number) => Promise<string>;
    otherTools: (url: string) => Promise<string[]>;
    currentView: AppView;
  }
}

const query = new URLSearchParams(location.search);
const sandboxUrl = query.get("sandbox") ?? "";
window.hostLog = [];
const log = (kind: string, detail: unknown) => {
  window.hostLog.push([kind, detail]);
};

const era = query.get("era");
const client = createClient({
  name: "mcpkit-test-host",
  version: "1.0.0",
  capabilities: { extensions: appExtension() },
  ...((era === "legacy" || era === "modern") && { versionNegotiation: era }),
});

function render(container: HTMLElement, url: string, initTimeoutMs?: number): Promise<AppView> {
  return renderApp({
    client,
    tool: "counter_app",
    container,
    sandboxUrl: url,
    hostInfo: { name: "mcpkit-test-host", version: "1.0.0" },
    hostContext: {
      theme: "light",
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      containerDimensions: { maxHeight: 2000 },
      locale: "en-GB",
      platform: "web",
    },
    ...(initTimeoutMs !== undefined && { initTimeoutMs }),
    hooks: {
      onOpenLink: ({ url: link }) => {
        log("open-link", link);
      },
      onToolCall: (call, next) => {
        log("tool-call", call.name);
        return next();
      },
      onSizeChange: (size) => {
        log("size", size.height);
        return true;
      },
      onLog: (entry) => log("log", entry.data),
      onProtocolError: (error) => log("protocol-error", error.message),
    },
  });
}

async function main(): Promise<string> {
  const endpoint = new URL(query.get("mcp") ?? "/mcp", location.href);
  await client.connect(() => createStreamableHttpClientTransport({ url: endpoint }));
  const view = await render(document.getElementById("app") as HTMLElement, sandboxUrl);
  window.currentView = view;
  await view.ready;
  log("initialized", client.era);
  view.sendToolInput({ label: "from the test" });
  const result = await client.callTool("counter_app", { label: "from the test" });
  log("result-text", result.content);
  view.sendToolResult(toCallToolResult(result));
  return client.era ?? "unknown";
}

window.hostReady = main();
window.hostReady.catch((error: Error) => log("failed", error.message));

// A second view whose sandbox page never answers: it must be torn down after the bound.
window.renderSilent = async (url, timeoutMs) => {
  const container = document.createElement("div");
  container.id = "silent";
  document.body.append(container);
  const view = await render(container, url, timeoutMs);
  try {
    await view.ready;
    return "initialized";
  } catch (error) {
    return `${(error as Error).message}; frames left: ${container.querySelectorAll("iframe").length}`;
  }
};

// The host also holds a client of another server; a view of the everything server must never reach it.
window.otherTools = async (url) => {
  const other = createClient({ name: "mcpkit-test-host", version: "1.0.0" });
  await other.connect(() => createStreamableHttpClientTransport({ url }));
  return (await other.listTools()).map((t) => t.name);
};
