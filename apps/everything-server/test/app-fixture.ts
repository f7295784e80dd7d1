// What the MCP Apps browser tests run on: the everything server (with its built counter view) over real
// loopback HTTP on the host origin (http://127.0.0.1:A), the sandbox proxy and a second MCP server on
// another origin (http://localhost:B), the test pages bundled for the browser, and Chromium.
import { existsSync } from "node:fs";
import { createServer as createNodeServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sandboxProxyHeaders, sandboxProxyHtml } from "@mcpkit/apps/host";
import { createServer } from "@mcpkit/server";
import { CHROMIUM_PATH, chromiumLaunchOptions } from "@mcpkit/test-kit";
import { createStreamableHttpHandler } from "@mcpkit/transport-http";
import { toNodeListener } from "@mcpkit/transport-http/node";
import { build } from "esbuild";
import type { Browser, Frame, Page } from "playwright-core";
import { buildViewHtml } from "../scripts/build-view.mjs";
import { createEverythingServer, type EverythingServer } from "../src/server.js";

const here = path.dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = CHROMIUM_PATH;

/** The running fixture: origins, the servers' state, and a way to stop everything. Endpoints on the host
 * origin: `/mcp` (the view built with ext-apps 2.x), `/mcp-v1` (built with 1.x), `/mcp-hand` (by hand). */
export interface AppFixture {
  readonly hostOrigin: string;
  readonly sandboxOrigin: string;
  readonly everything: EverythingServer;
  /** GETs of the probe URL that reached the host server (a view's blocked fetch adds none). */
  readonly probeHits: () => number;
  /** Calls of the second server's `secret_write` tool. */
  readonly secretWrites: () => number;
  close(): Promise<void>;
}

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(here, "app-pages", entry)],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["@mcpkit/source"],
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

const page = (script: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>MCP Apps host</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:16px;background:#f4f4f6}#app{max-width:420px;background:white;border-radius:10px;padding:8px}</style>
</head><body><div id="app"></div><script type="module" src="/${script}"></script></body></html>`;

const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });

function listen(server: NodeServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts the servers and bundles the pages. */
export async function startAppFixture(): Promise<AppFixture> {
  const [viewHtml, v1ViewHtml, mcpkitHost, extAppsHost] = await Promise.all([
    buildViewHtml(),
    buildViewHtml({ extApps: "v1" }),
    bundle("mcpkit-host.ts"),
    bundle("ext-apps-host.ts"),
  ]);
  const everything = createEverythingServer({ tickMs: 0, appHtml: viewHtml });
  // The same app with its view built with ext-apps 1.x, and with the view written by hand (the default).
  const variants = {
    "/mcp-v1": createEverythingServer({ tickMs: 0, appHtml: v1ViewHtml }),
    "/mcp-hand": createEverythingServer({ tickMs: 0 }),
  };
  let probeHits = 0;
  let secretWrites = 0;

  const hostServer = createNodeServer();
  const sandboxServer = createNodeServer();
  const [hostPort, sandboxPort] = await Promise.all([listen(hostServer), listen(sandboxServer)]);
  const hostOrigin = `http://127.0.0.1:${hostPort}`;
  const sandboxOrigin = `http://localhost:${sandboxPort}`;

  const mcp = createStreamableHttpHandler({
    connect: async (t) => {
      await everything.connect(t);
    },
  });
  const variantHandlers = Object.entries(variants).map(([endpoint, server]) => {
    const handler = createStreamableHttpHandler({
      connect: async (t) => {
        await server.connect(t);
      },
    });
    return { endpoint, handler, listener: toNodeListener(handler, { path: endpoint }) };
  });
  const main = toNodeListener(mcp, {
    path: "/mcp",
    otherRoutes: (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === "/mcpkit-host.html") return html(page("mcpkit-host.js"));
      if (pathname === "/ext-apps-host.html") return html(page("ext-apps-host.js"));
      if (pathname === "/mcpkit-host.js" || pathname === "/ext-apps-host.js")
        return new Response(pathname === "/mcpkit-host.js" ? mcpkitHost : extAppsHost, {
          headers: { "content-type": "text/javascript" },
        });
      if (pathname === "/probe") {
        probeHits += 1;
        return new Response("reached", { headers: { "access-control-allow-origin": "*" } });
      }
      return undefined;
    },
  });
  hostServer.on("request", (req, res) => {
    const variant = variantHandlers.find(({ endpoint }) => req.url?.split("?")[0] === endpoint);
    (variant?.listener ?? main)(req, res);
  });

  // Another server the host is connected to: a view of the everything server must never reach it.
  const other = createServer({ name: "other", version: "1.0.0" });
  other.registerTool("secret_write", { description: "Writes a secret" }, () => {
    secretWrites += 1;
    return "written";
  });
  const otherMcp = createStreamableHttpHandler({
    connect: async (t) => {
      await other.connect(t);
    },
    cors: true,
    allowedOrigins: [hostOrigin],
  });
  sandboxServer.on(
    "request",
    toNodeListener(otherMcp, {
      path: "/mcp",
      otherRoutes: (request) => {
        const { pathname } = new URL(request.url);
        if (pathname === "/sandbox.html")
          return new Response(sandboxProxyHtml({ hostOrigin }), {
            headers: sandboxProxyHeaders({ hostOrigin }),
          });
        // A sandbox page that never announces itself: its view never initializes.
        if (pathname === "/silent.html") return html("<!DOCTYPE html><p>silent</p>");
        // Another window on another origin that talks to the host as if it were a view.
        if (pathname === "/stranger.html")
          return html(`<!DOCTYPE html><script>
            const say = (m) => window.parent.postMessage(m, "*");
            say({ jsonrpc: "2.0", id: "s1", method: "ui/open-link", params: { url: "https://stranger.example/" } });
            say({ jsonrpc: "2.0", id: "s2", method: "tools/call", params: { name: "counter_bump", arguments: {} } });
            say({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { height: 5000 } });
            say({ bogus: true });
            say("stranger-done");
          </script>`);
        return undefined;
      },
    }),
  );

  return {
    hostOrigin,
    sandboxOrigin,
    everything,
    probeHits: () => probeHits,
    secretWrites: () => secretWrites,
    async close() {
      await Promise.all([
        mcp.close(),
        otherMcp.close(),
        ...variantHandlers.map(({ handler }) => handler.close()),
      ]);
      hostServer.closeAllConnections();
      sandboxServer.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => hostServer.close(resolve)),
        new Promise((resolve) => sandboxServer.close(resolve)),
      ]);
      await Promise.all([
        everything.close(),
        other.close(),
        ...Object.values(variants).map((v) => v.close()),
      ]);
    },
  };
}

/** Launches Debian's Chromium headless, as the team's notes say; `undefined` when it is not installed. */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import("playwright-core");
  return chromium.launch(chromiumLaunchOptions());
}

/** The view's frame: the srcdoc frame inside the sandbox proxy's frame (waits up to 10 s for it). */
export async function viewFrame(target: Page, sandboxOrigin: string, within = "#app"): Promise<Frame> {
  const proxy = await (await target.waitForSelector(`${within} iframe`, { timeout: 10_000 })).contentFrame();
  if (proxy === null || !proxy.url().startsWith(sandboxOrigin))
    throw new Error("The sandbox proxy frame is missing");
  const inner = await (await proxy.waitForSelector("iframe", { timeout: 10_000 })).contentFrame();
  if (inner === null) throw new Error("The view frame is missing");
  return inner;
}

/** Waits (up to 10 s) until the text of `#id` in `frame` matches `pattern`, and returns the text. */
export async function textOf(frame: Frame, id: string, pattern: RegExp): Promise<string> {
  await frame.waitForFunction(
    ([elementId, source]) =>
      new RegExp(source as string).test(document.getElementById(elementId as string)?.textContent ?? ""),
    [id, pattern.source],
    { timeout: 10_000 },
  );
  return (await frame.textContent(`#${id}`)) ?? "";
}
