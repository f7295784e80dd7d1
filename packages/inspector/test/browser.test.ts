// The inspector's page in real Chromium (one launch for the file) against the reference server-everything
// over stdio, our everything-server over Streamable HTTP, a server that crashes at start and a hostile one.
// Each main view's screenshot goes to docs/ (shown in the README).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serverEverythingEntry } from "@mcpkit/peers";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningInspector, startInspector } from "../src/index.js";
import { launchChromium } from "./chromium.js";
import { type EverythingHttp, startEverythingHttp } from "./everything-http.js";
import { buildPage } from "./page-build.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const docs = (name: string) => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));

let browser: Browser | undefined;
let page: Page;
let inspector: RunningInspector;
let http: EverythingHttp;

beforeAll(async () => {
  browser = await launchChromium();
  if (!browser) {
    if (process.env.CI === "true")
      throw new Error("Chromium (/usr/bin/chromium) is missing: CI must install it");
    console.warn("skipping the inspector's browser tests: /usr/bin/chromium is not installed");
    return;
  }
  const [appDir, started] = await Promise.all([buildPage(), startEverythingHttp()]);
  http = started;
  inspector = await startInspector({
    appDir,
    targets: [
      {
        kind: "stdio",
        name: "server-everything",
        command: process.execPath,
        args: [serverEverythingEntry(), "stdio"],
      },
      { kind: "stdio", name: "crashing", command: process.execPath, args: [fixture("crashing-server.mjs")] },
      { kind: "stdio", name: "hostile", command: process.execPath, args: [fixture("hostile-server.mjs")] },
    ],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 720 }, acceptDownloads: true });
  page.setDefaultTimeout(15_000);
  await page.goto(inspector.url);
});

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
  await http?.close();
});

const shot = (name: string) => page.screenshot({ path: docs(name) });
const text = async (selector: string) => (await page.textContent(selector)) ?? "";

async function openTab(id: string, view?: string) {
  await page.click(`[data-tab=${id}]`);
  await page.waitForSelector(`[data-connection=${id}]`);
  if (view) await page.click(`#view-${view}`);
}

async function pickTool(name: string) {
  await page.click(`#tool-list button[data-tool="${name}"]`);
  await page.waitForSelector(`.tool-panel[data-tool="${name}"]`);
}

// Skips only off CI without /usr/bin/chromium (beforeAll printed why; under CI it runs, and fails without it).
describe.skipIf(!process.env.CI && !(await import("node:fs")).existsSync("/usr/bin/chromium"))(
  "the inspector in Chromium",
  () => {
    it("connects over stdio and shows the server's info, era and capabilities", async () => {
      // The token left the address for the cookie.
      expect(page.url()).not.toContain("token=");
      await openTab("c1", "info");
      expect(await text("#info-server")).toMatch(/everything/i);
      expect(await text("#info-era")).toBe("legacy");
      expect(await text("#info-version")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(await text("#info-capabilities")).toContain('"tools"');
      await shot("info.png");
    });

    it("lists tools, validates the form before sending, then calls with the filled form", async () => {
      await openTab("c1", "tools");
      await pickTool("get-sum");
      await page.click("#call");
      expect(await text("#problems")).toMatch(/a is required/);
      await page.fill("#field-arg-a", "2");
      await page.fill("#field-arg-b", "40");
      await page.click("#call");
      await page.waitForFunction(() => /42/.test(document.querySelector("#tool-result")?.textContent ?? ""));
      await shot("tools.png");
      // The raw-JSON switch sends what is typed.
      await page.check("#raw-switch");
      await page.fill("#raw-json", '{"a": 1, "b": 2}');
      await page.click("#call");
      await page.waitForFunction(() =>
        /\b3\b/.test(document.querySelector("#tool-result")?.textContent ?? ""),
      );
    });

    it("shows the progress of a slow call and cancels it", async () => {
      await pickTool("trigger-long-running-operation");
      await page.fill("#field-arg-duration", "60");
      await page.fill("#field-arg-steps", "60");
      await page.click("#call");
      await page.waitForSelector("#progress progress");
      expect(await text("#progress")).toMatch(/\/ 60/);
      await shot("progress.png");
      await page.click("#cancel");
      await page.waitForSelector("#call-error");
      expect(await text("#call-error")).toMatch(/cancel/i);
      expect(await page.isEnabled("#call")).toBe(true);
    });

    it("answers an elicitation as a form", async () => {
      await pickTool("trigger-elicitation-request");
      await page.click("#call");
      await page.waitForSelector("#elicitation");
      expect(await text("#elicitation")).toContain("Please provide inputs");
      // Defaults are filled in; the required name is not.
      expect(await page.inputValue("#field-elicit-firstLine")).toBe("It was a dark and stormy night.");
      await page.click("#elicit-accept");
      expect(await text("#elicitation")).toMatch(/name is required/);
      await page.fill("#field-elicit-name", "Ada Lovelace");
      await shot("elicitation.png");
      await page.click("#elicit-accept");
      await page.waitForFunction(() =>
        /Name: Ada Lovelace/.test(document.querySelector("#tool-result")?.textContent ?? ""),
      );
      expect(await page.$("#elicitation")).toBeNull();
    });

    it("shows every message on the wire, filters it and exports it as JSON", async () => {
      await page.click("#view-wire");
      await page.fill("#wire-filter", "tools/call");
      await page.waitForSelector(".wire-row");
      const rows = await page.$$eval(".wire-row", (trs) => trs.map((tr) => tr.textContent ?? ""));
      expect(rows.length).toBeGreaterThanOrEqual(4);
      expect(rows.every((row) => /tools\/call|result|error/.test(row))).toBe(true);
      expect(rows.some((row) => row.includes("legacy"))).toBe(true);
      await page.fill("#wire-filter", "");
      await page.click(".wire-row");
      await page.waitForSelector(".wire-detail pre");
      await shot("wire.png");
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#wire-export")]);
      const exported = JSON.parse(readFileSync((await download.path()) ?? "", "utf8")) as Array<{
        direction: string;
      }>;
      expect(exported.some((e) => e.direction === "out")).toBe(true);
      expect(exported.some((e) => e.direction === "in")).toBe(true);
    });

    it("reads a resource and gets a prompt", async () => {
      await openTab("c1", "resources");
      await page.click("#resource-list button.item >> nth=0");
      await page.waitForSelector("#resource-contents .part-resource");
      expect((await page.inputValue("#resource-uri")).length).toBeGreaterThan(0);
      await shot("resources.png");
      await page.click("#view-prompts");
      await page.click('#prompt-list button[data-prompt="simple-prompt"]');
      await page.click("#prompt-get");
      await page.waitForSelector("#prompt-messages .message");
      expect(await text("#prompt-messages")).toMatch(/user/);
    });

    it("sets the server's log level from the log view", async () => {
      await openTab("c1", "log");
      await page.selectOption("#log-level", "debug");
      await page.click("#view-wire");
      await page.fill("#wire-filter", "logging/setLevel");
      await page.waitForSelector(".wire-row");
      expect(await text(".wire-row")).toContain("logging/setLevel");
      await page.click("#view-log");
      expect(await page.$("#log .error")).toBeNull();
    });

    it("diagnoses a server that crashes at start: the step, its stderr, the fix", async () => {
      await openTab("c2");
      await page.waitForSelector("#doctor");
      expect(await text("#doctor-step")).toBe("process exited");
      expect(await text("#doctor-summary")).toMatch(/code 1.*Starting my-server/);
      expect(await text("#doctor-stderr")).toContain("Cannot find module 'missing-dependency'");
      expect(await text("#doctor-fix")).toMatch(/stderr/);
      await shot("doctor.png");
    });

    it("shows a hostile server's strings as text, cuts a 20 MiB result, survives a hang and a crash", async () => {
      await openTab("c3", "tools");
      await pickTool("hostile");
      expect(await text("#tool-description")).toContain('<img src=x onerror="window.__pwned=1">');
      await page.click("#call");
      await page.waitForSelector("#tool-result");
      expect(await text("#tool-result")).toContain("<script>window.__pwned=2</script>");
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await page.$$('img[src="x"]')).toHaveLength(0);
      expect(await page.$$("b")).toHaveLength(0);
      await shot("hostile.png");
      await pickTool("huge");
      await page.click("#call");
      await page.waitForSelector("#tool-result .warning", { timeout: 30_000 });
      expect(await text("#tool-result .warning")).toMatch(/20\.0 MiB/);
      await pickTool("hang");
      await page.click("#call");
      await page.waitForSelector("#cancel");
      await page.click("#cancel");
      await page.waitForSelector("#call-error");
      await pickTool("crash");
      await page.click("#call");
      await page.waitForSelector("#closed-reason");
      expect(await text("#closed-reason")).toMatch(/exited with code 3/);
      // The log has the server's stderr.
      await page.click("#view-log");
      await page.waitForSelector(".log-stderr");
      expect(await text("#log")).toContain("hostile-server: crashing on purpose");
      // The page is still usable: another tab answers.
      await openTab("c1", "info");
      expect(await text("#info-era")).toBe("legacy");
    });

    it("connects to our everything-server over Streamable HTTP from the page and shows the HTTP exchanges", async () => {
      await page.fill("#target", http.url);
      await page.click("#connect");
      await page.waitForSelector("[data-connection=c4][data-state=ready]");
      await page.click("#view-info");
      expect(await text("#info-era")).toBe("modern");
      await page.click("#view-tools");
      await pickTool("add");
      await page.fill("#field-arg-a", "20");
      await page.fill("#field-arg-b", "22");
      await page.click("#call");
      await page.waitForFunction(() =>
        /"sum": 42/.test(document.querySelector("#tool-result")?.textContent ?? ""),
      );
      // A tool with an MCP App view: the placeholder names what is missing.
      await pickTool("counter_app");
      expect(await text("#app-placeholder")).toMatch(
        /ui:\/\/everything\/counter.*not done yet.*@mcpkit\/apps\/host/,
      );
      await page.click("#view-wire");
      await page.selectOption("#wire-direction", "http");
      await page.waitForSelector(".wire-row");
      const rows = await page.$$eval(".wire-row", (trs) => trs.map((tr) => tr.textContent ?? ""));
      expect(rows.some((row) => row.includes("POST") && row.includes("200"))).toBe(true);
      await page.click(".wire-row >> nth=-1");
      await page.waitForSelector(".wire-detail pre");
      expect(await text(".wire-detail pre")).toMatch(/mcp-protocol-version/i);
      await shot("http-wire.png");
    });
  },
);
