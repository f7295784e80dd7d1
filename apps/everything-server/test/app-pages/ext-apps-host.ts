// The test page of a host built on the official ext-apps AppBridge and the official SDK v2 client,
// against the everything server (mcpkit) over HTTP, through mcpkit's sandbox proxy page.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

declare global {
  interface Window {
    hostLog: Array<[string, unknown]>;
    hostReady: Promise<string>;
  }
}

window.hostLog = [];
const log = (kind: string, detail: unknown) => {
  window.hostLog.push([kind, detail]);
};

async function main(): Promise<string> {
  const sandboxUrl = new URLSearchParams(location.search).get("sandbox") ?? "";
  const client = new Client({ name: "ext-apps-test-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === "counter_app");
  const uri = (tool?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri ?? "";
  const read = await client.readResource({ uri });
  const content = read.contents[0] as { text?: string; _meta?: { ui?: { csp?: Record<string, string[]> } } };

  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  iframe.style.cssText = "display:block;width:100%;height:0;border:0";
  const bridge = new AppBridge(
    client,
    { name: "ext-apps-test-host", version: "1.0.0" },
    { openLinks: {}, serverTools: {}, serverResources: {} },
    { hostContext: { theme: "dark", displayMode: "inline", platform: "web", locale: "en-US" } },
  );
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  bridge.onopenlink = async ({ url }) => {
    log("open-link", url);
    return {};
  };
  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html: content.text ?? "", csp: content._meta?.ui?.csp ?? {} });
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  // Listening before the proxy loads: it announces itself as soon as its script runs.
  document.getElementById("app")?.append(iframe);
  const frame = iframe.contentWindow as Window;
  await bridge.connect(new PostMessageTransport(frame, frame));
  iframe.src = sandboxUrl;
  await initialized;
  log("initialized", bridge.getAppVersion()?.name);
  await bridge.sendToolInput({ arguments: { label: "ext-apps host" } });
  const result = await client.callTool({ name: "counter_app", arguments: { label: "ext-apps host" } });
  await bridge.sendToolResult(result as Parameters<AppBridge["sendToolResult"]>[0]);
  return "ok";
}

window.hostReady = main();
window.hostReady.catch((error: Error) => log("failed", error.message));
