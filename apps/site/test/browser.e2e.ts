// The built site in Chromium (Debian's /usr/bin/chromium through playwright-core): the home page, a guide
// whose code block is an imported example, and the local search, each saved as a screenshot that the
// README shows (screenshots/*.png). Needs `pnpm docs:build` first; without the build or Chromium it skips
// with the reason, and under CI=true it fails instead.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StaticServer, serveStatic } from "./static-server.js";

const CHROMIUM = "/usr/bin/chromium";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const shots = join(root, "screenshots");

const missing = !existsSync(join(dist, "index.html"))
  ? `the site is not built (${dist}/index.html): run pnpm docs:build`
  : !existsSync(CHROMIUM)
    ? `${CHROMIUM} is not installed`
    : undefined;
if (missing !== undefined) {
  if (process.env.CI === "true")
    throw new Error(`The site's Chromium test cannot run under CI=true: ${missing}`);
  console.warn(`Skipping the site's Chromium test: ${missing}`);
}

describe.skipIf(missing !== undefined)("the built site in Chromium", () => {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await serveStatic(dist);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    page.setDefaultTimeout(10_000);
    page.on("pageerror", (error) => errors.push(error.message));
    // Offline: the site must load nothing from another origin (no CDN, no web fonts).
    await page.route("**/*", (route) =>
      route.request().url().startsWith(server.origin) ? route.continue() : route.abort(),
    );
    page.on("requestfailed", (request) => errors.push(`request failed: ${request.url()}`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("opens the home page", async () => {
    await page.goto(`${server.origin}/`);
    await expect(page.locator(".VPHero .name").textContent()).resolves.toContain("mcpkit");
    await page.locator(".VPFeature").first().waitFor();
    await page.screenshot({ path: join(shots, "home.png") });
    expect(errors).toEqual([]);
  });

  it("opens a guide whose code is an example file", async () => {
    await page.goto(`${server.origin}/guide/tools.html`);
    await expect(page.locator("h1").textContent()).resolves.toContain("Tools");
    const code = await page.locator("div[class*='language-ts'] pre").first().textContent();
    expect(code).toContain("server.registerTool(");
    await page.screenshot({ path: join(shots, "guide.png") });
    expect(errors).toEqual([]);
  });

  it("runs the local search and follows a result", async () => {
    await page.goto(`${server.origin}/`);
    await page.locator("#local-search button, .VPNavBarSearch button").first().click();
    const input = page.locator(".VPLocalSearchBox input");
    await input.fill("registerSkillDirectory");
    const results = page.locator(".VPLocalSearchBox .results li");
    await results.first().waitFor();
    expect(await results.count()).toBeGreaterThan(0);
    const titles = (await results.allTextContents()).join(" | ");
    expect(titles).toMatch(/Skills/);
    await page.screenshot({ path: join(shots, "search.png") });
    await results.filter({ hasText: "Skills" }).first().click();
    await page.waitForURL(/\/guide\/skills\.html/);
    expect(errors).toEqual([]);
  });
});
