// MCP Apps end to end in real Chromium: the everything server's counter app (its view built with the
// official ext-apps App) rendered by a page hosting @mcpkit/apps/host, and by a page hosting the official
// ext-apps AppBridge, both over loopback HTTP with the sandbox proxy on a second origin.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { viewCsp } from "@mcpkit/apps/host";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppFixture,
  CHROMIUM,
  launchChromium,
  startAppFixture,
  textOf,
  viewFrame,
} from "./app-fixture.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const SCREENSHOT = path.resolve(here, "../../../packages/apps/docs/counter-app.png");

// Without Chromium the tests say why they skip; under CI=true they run, and fail at the launch.
const available = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!available) console.warn(`skipping the MCP Apps browser tests: no Chromium at ${CHROMIUM}`);

let browser: Browser | undefined;
let context: BrowserContext;
let fixture: AppFixture;
let host: Page;
let view: Frame;

const hostLog = (page: Page = host) => page.evaluate(() => window.hostLog);

const SPEC_URL = "https://modelcontextprotocol.io/extensions/apps";

/** A host page's URL, with the sandbox proxy's URL and `params` in its query. */
function hostPageUrl(name: "mcpkit-host" | "ext-apps-host", params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...params, sandbox: `${fixture.sandboxOrigin}/sandbox.html` });
  return `${fixture.hostOrigin}/${name}.html?${query}`;
}

/** Clicks the view's link and waits (up to 10 s) until the host's open-link hook got the spec's URL. */
async function expectLinkOpened(page: Page, frame: Frame): Promise<void> {
  await frame.click("#link");
  await page.waitForFunction(
    (url) => window.hostLog.some(([kind, detail]) => kind === "open-link" && detail === url),
    SPEC_URL,
    { timeout: 10_000 },
  );
}

/** Posts a JSON-RPC frame from inside the view to its parent and waits (bounded) for the reply with `id`. */
function askFromView(frame: Frame, message: unknown, id: unknown): Promise<Record<string, unknown>> {
  return frame.evaluate(
    ([m, wanted]) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no reply")), 5_000);
        window.addEventListener("message", (event) => {
          if (event.data?.id === wanted) {
            clearTimeout(timer);
            resolve(event.data);
          }
        });
        window.parent.postMessage(m, "*");
      }),
    [message, id] as const,
  );
}

// Runs where Chromium is installed, and always under CI (where a missing one fails); the warning above says why it skips.
describe.runIf(available)("MCP Apps in Chromium", () => {
  beforeAll(async () => {
    browser = await launchChromium();
    if (browser === undefined)
      throw new Error(`Chromium is not installed at ${CHROMIUM}; CI must install it`);
    fixture = await startAppFixture();
    context = await browser.newContext({ viewport: { width: 480, height: 720 } });
    host = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  describe("the counter app under @mcpkit/apps/host", () => {
    it("initializes, gets tool-input and tool-result", async () => {
      await host.goto(hostPageUrl("mcpkit-host"));
      expect(await host.evaluate(() => window.hostReady)).toBe("modern");
      view = await viewFrame(host, fixture.sandboxOrigin);
      await textOf(view, "status", /^Tool result received$/);
      expect(await view.textContent("#input")).toBe('Tool input: {"label":"from the test"}');
      expect(await view.textContent("#title")).toBe("Counter: from the test");
      expect(await view.textContent("#counter")).toBe("0");
      expect(await hostLog()).toContainEqual(["initialized", "modern"]);
      // The server saw the host's io.modelcontextprotocol/ui capability (rendersApps in its handler).
      expect(await hostLog()).toContainEqual([
        "result-text",
        "The counter is 0 (from the test). The view shows it.",
      ]);
    });

    it("calls a server tool through the bridge and shows the answer", async () => {
      await view.click("#bump");
      expect(await textOf(view, "answer", /now/)).toBe("The counter is now 1.");
      expect(await view.textContent("#counter")).toBe("1");
      expect(fixture.everything.counter).toBe(1);
      expect(await hostLog()).toContainEqual(["tool-call", "counter_bump"]);
    });

    it("resizes and the iframe follows", async () => {
      const frameHeight = () =>
        host.evaluate(() => document.querySelector("#app iframe")?.getBoundingClientRect().height ?? 0);
      const before = await frameHeight();
      expect(before).toBeGreaterThan(100);
      for (let i = 0; i < 4; i++) await view.click("#grow");
      await host.waitForFunction(
        (h) => (document.querySelector("#app iframe")?.getBoundingClientRect().height ?? 0) > h + 60,
        before,
        { timeout: 10_000 },
      );
      // The view's own measure of its content (as ext-apps' App takes it); the frame ends at that height.
      const contentHeight = await view.evaluate(() => {
        const root = document.documentElement;
        const height = root.style.height;
        root.style.height = "max-content";
        const measured = Math.ceil(root.getBoundingClientRect().height);
        root.style.height = height;
        return measured;
      });
      await host.waitForFunction(
        // clientHeight: the frame's inside, without the border the view asked for (prefersBorder).
        (h) => Math.abs((document.querySelector("#app iframe")?.clientHeight ?? 0) - h) <= 1,
        contentHeight,
        { timeout: 10_000 },
      );
      expect(await hostLog()).toContainEqual(["size", contentHeight]);
    });

    it("ui/open-link reaches the host's handler", async () => {
      await expectLinkOpened(host, view);
    });

    it("loads the view under the CSP and permissions from its _meta.ui", async () => {
      const proxyAllow = await host.evaluate(() =>
        document.querySelector("#app iframe")?.getAttribute("allow"),
      );
      expect(proxyAllow).toBe("clipboard-write");
      const proxy = view.parentFrame();
      expect(await proxy?.evaluate(() => document.querySelector("iframe")?.getAttribute("allow"))).toBe(
        "clipboard-write",
      );
      expect(await proxy?.evaluate(() => document.querySelector("iframe")?.getAttribute("sandbox"))).toBe(
        "allow-scripts allow-forms",
      );
      const policy = await view.evaluate(() =>
        document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content"),
      );
      expect(policy).toBe(viewCsp({}));
    });

    it("blocks a fetch to an origin outside the view's CSP", async () => {
      const probe = `${fixture.hostOrigin}/probe`;
      const outcome = await view.evaluate(
        (url) =>
          fetch(url).then(
            () => "reached",
            (e: Error) => `blocked: ${e.name}`,
          ),
        probe,
      );
      expect(outcome).toBe("blocked: TypeError");
      expect(fixture.probeHits()).toBe(0);
      // The probe itself answers: the host page (no such CSP) reaches it.
      expect(await host.evaluate((url) => fetch(url).then((r) => r.text()), probe)).toBe("reached");
      expect(fixture.probeHits()).toBe(1);
    });

    it("answers a malformed frame with a JSON-RPC error, and nothing else breaks", async () => {
      const bad = await askFromView(view, { jsonrpc: "2.0", id: 77, method: 42 }, 77);
      expect(bad.error).toMatchObject({ code: -32600 });
      const noId = await askFromView(view, { hello: "world" }, null);
      expect(noId.error).toMatchObject({ code: -32600 });
      await view.click("#bump");
      expect(await textOf(view, "answer", /now 2/)).toBe("The counter is now 2.");
    });

    it("refuses a model-only tool and another server's tool", async () => {
      const callFromView = (id: string, name: string) =>
        askFromView(view, { jsonrpc: "2.0", id, method: "tools/call", params: { name } }, id);
      const modelOnly = await callFromView("m1", "counter_peek");
      expect(modelOnly.error).toEqual({
        code: -32000,
        message: 'Tool counter_peek is not callable by apps (its visibility has no "app")',
      });
      const other = await callFromView("o1", "secret_write");
      expect(other.error).toEqual({
        code: -32602,
        message: "Tool secret_write is not a tool of this server",
      });
      // The host page does hold a client of that other server, and the tool is there.
      expect(await host.evaluate((url) => window.otherTools(url), `${fixture.sandboxOrigin}/mcp`)).toEqual([
        "secret_write",
      ]);
      expect(fixture.secretWrites()).toBe(0);
    });

    it("ignores messages from any other window or origin", async () => {
      const before = (await hostLog()).length;
      const counter = fixture.everything.counter;
      await host.evaluate(
        (url) =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error("the stranger never finished")), 5_000);
            window.addEventListener("message", (event) => {
              if (event.data === "stranger-done") {
                clearTimeout(timer);
                resolve();
              }
            });
            // The page itself, then a frame on the sandbox's origin that is not the view.
            window.postMessage(
              {
                jsonrpc: "2.0",
                id: "self",
                method: "ui/open-link",
                params: { url: "https://self.example/" },
              },
              "*",
            );
            const frame = document.createElement("iframe");
            frame.src = url;
            document.body.append(frame);
          }),
        `${fixture.sandboxOrigin}/stranger.html`,
      );
      // A round trip through the real view after the strangers: anything they caused would be logged by now.
      await view.click("#bump");
      await textOf(view, "answer", /now 3/);
      const after = (await hostLog()).slice(before);
      expect(after).toEqual([["tool-call", "counter_bump"]]);
      expect(fixture.everything.counter).toBe(counter + 1);
    });

    it("tears down a view that never initializes, after the bound", async () => {
      const outcome = await host.evaluate(
        (url) => window.renderSilent(url, 300),
        `${fixture.sandboxOrigin}/silent.html`,
      );
      expect(outcome).toBe("The view of counter_app did not initialize within 300 ms; frames left: 0");
      expect(await hostLog()).toContainEqual([
        "protocol-error",
        "The view of counter_app did not initialize within 300 ms",
      ]);
    });

    it("takes the README's screenshot", async () => {
      const png = await host.locator("#app").screenshot();
      expect(png.length).toBeGreaterThan(1_000);
      if (process.env.MCPKIT_APPS_SCREENSHOT === "1") writeFileSync(SCREENSHOT, png);
    });

    it("host-context-changed reaches the view; resource-teardown is answered, then the frame goes", async () => {
      expect(await view.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
      await host.evaluate(() => window.currentView.setHostContext({ theme: "dark" }));
      await view.waitForFunction(() => document.documentElement.dataset.theme === "dark", undefined, {
        timeout: 10_000,
      });
      const outcome = await host.evaluate(async () => {
        const frame = window.currentView.iframe;
        const answered = await window.currentView.teardown("the test is done");
        return [answered, frame.isConnected, document.querySelectorAll("#app iframe").length];
      });
      expect(outcome).toEqual([true, false, 0]);
    });
  });

  describe("a 2025-11-25 session", () => {
    it("declares the extension too: the server knows the host renders the view, which works", async () => {
      const page = await context.newPage();
      await page.goto(hostPageUrl("mcpkit-host", { mcp: "/mcp-hand", era: "legacy" }));
      expect(await page.evaluate(() => window.hostReady)).toBe("legacy");
      expect(await hostLog(page)).toContainEqual([
        "result-text",
        expect.stringMatching(/The view shows it\.$/),
      ]);
      const frame = await viewFrame(page, fixture.sandboxOrigin);
      await textOf(frame, "status", /^Tool result received$/);
      await frame.click("#bump");
      expect(await textOf(frame, "answer", /now/)).toMatch(/^The counter is now \d+\.$/);
      await page.close();
    });
  });

  describe("a view that navigates its own frame", () => {
    it("cannot take it to an origin outside its CSP", async () => {
      const page = await context.newPage();
      await page.goto(hostPageUrl("mcpkit-host", { mcp: "/mcp-hand" }));
      await page.evaluate(() => window.hostReady);
      const frame = await viewFrame(page, fixture.sandboxOrigin);
      const hits = fixture.probeHits();
      const navigated = page.waitForEvent("framenavigated", {
        predicate: (f) => f === frame,
        timeout: 10_000,
      });
      await frame.evaluate((url) => {
        location.href = url;
      }, `${fixture.hostOrigin}/probe?from=navigation`);
      // Refused by the proxy's frame-src: the frame shows the browser's error page, the probe saw nothing.
      expect((await navigated).url()).not.toContain("/probe");
      expect(fixture.probeHits()).toBe(hits);
      await page.close();
    });
  });

  describe("the same app with other views under @mcpkit/apps/host", () => {
    const views = [
      ["/mcp-v1", "built with the ext-apps 1.7.5 App"],
      ["/mcp-hand", "written by hand"],
    ] as const;
    for (const [endpoint, what] of views) {
      it(`a view ${what}: initializes, shows the result, calls the server, resizes, opens a link`, async () => {
        const page = await context.newPage();
        await page.goto(hostPageUrl("mcpkit-host", { mcp: endpoint }));
        expect(await page.evaluate(() => window.hostReady)).toBe("modern");
        const frame = await viewFrame(page, fixture.sandboxOrigin);
        await textOf(frame, "status", /^Tool result received$/);
        expect(await frame.textContent("#input")).toBe('Tool input: {"label":"from the test"}');
        await frame.click("#bump");
        // Each endpoint has its own counter; other tests bump these too.
        expect(await textOf(frame, "answer", /now/)).toMatch(/^The counter is now \d+\.$/);
        const height = () => page.evaluate(() => document.querySelector("#app iframe")?.clientHeight ?? 0);
        const before = await height();
        for (let i = 0; i < 3; i++) await frame.click("#grow");
        await page.waitForFunction(
          (h) => (document.querySelector("#app iframe")?.clientHeight ?? 0) > h + 30,
          before,
          {
            timeout: 10_000,
          },
        );
        await expectLinkOpened(page, frame);
        await page.close();
      });
    }
  });

  describe("the counter app under the official ext-apps AppBridge", () => {
    it("renders through mcpkit's sandbox proxy and works against the mcpkit server", async () => {
      const page = await context.newPage();
      await page.goto(hostPageUrl("ext-apps-host"));
      expect(await page.evaluate(() => window.hostReady)).toBe("ok");
      const frame = await viewFrame(page, fixture.sandboxOrigin);
      await textOf(frame, "status", /^Tool result received$/);
      expect(await frame.textContent("#input")).toBe('Tool input: {"label":"ext-apps host"}');
      const counter = fixture.everything.counter;
      await frame.click("#bump");
      expect(await textOf(frame, "answer", /now/)).toBe(`The counter is now ${counter + 1}.`);
      await expectLinkOpened(page, frame);
      expect(
        await page.evaluate(() => document.querySelector("#app iframe")?.getBoundingClientRect().height ?? 0),
      ).toBeGreaterThan(100);
      await page.close();
    });
  });
});
