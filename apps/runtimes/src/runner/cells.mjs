// The cells of the table, each run as real processes of its runtime. A cell resolves
// `{ status: "pass" | "fail" | "skip", detail, log? }` and never rejects.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { distDir } from "./bundle.mjs";
import { eraCell } from "./gate.mjs";
import { freePort, runToEnd, startServer } from "./processes.mjs";
import { repoRoot } from "./runtimes.mjs";

const script = (name) => path.join(distDir, name);
const pass = (detail) => ({ status: "pass", detail });
const fail = (detail, log) => ({ status: "fail", detail, log });

/** Reads the client report (one JSON line: an EraReport per era) a run printed, as a cell. */
function reportCell(run, what) {
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  let reports;
  try {
    reports = JSON.parse(line);
  } catch {
    return fail(`${what}: no report (exit ${run.code})`, `${run.stdout}\n${run.stderr}`.slice(-3000));
  }
  return eraCell(reports, what, run.code === 0 ? "" : `${run.stdout}\n${run.stderr}`);
}

/** The `workerd serve` argv for one worker module on `port`, with text bindings. */
function workerdCommand(rt, module, port, bindings = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-workerd-"));
  const bound = Object.entries(bindings)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(", ");
  writeFileSync(path.join(dir, "worker.mjs"), readFileSync(script(module)));
  writeFileSync(
    path.join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # Outbound fetches may reach this machine's loopback (the Node server the client cell calls).
    (name = "net", network = (allow = ["local", "private", "public"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.mjs") ],
  compatibilityDate = "2026-11-01",
  bindings = [ ${bound} ],
  globalOutbound = "net",
);
`,
  );
  return {
    argv: [rt.bin, "serve", path.join(dir, "config.capnp")],
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Starts `rt`'s HTTP server (the runtime app) on a free port. `origin` is the browser page's, if any. */
export async function startRuntimeServer(rt, origin) {
  const port = await freePort();
  const env = { PORT: String(port), ...(origin ? { ORIGIN: origin } : {}) };
  if (rt.kind === "workerd") {
    const { argv, cleanup } = workerdCommand(rt, "worker-server.mjs", port, origin ? { ORIGIN: origin } : {});
    const server = await startServer(argv, port);
    return {
      url: `http://127.0.0.1:${port}/mcp`,
      stop: async () => {
        await server.stop();
        cleanup();
      },
      output: server.output,
    };
  }
  const entry = { node: "server-node.mjs", bun: "server-bun.mjs", deno: "server-deno.mjs" }[rt.kind];
  const server = await startServer(rt.command(script(entry)), port, { env });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: server.stop, output: server.output };
}

/**
 * Docs cell: the runtime's example of apps/docs (examples/runtimes: a Deno server, a Bun server, a worker),
 * started as documented, checked by our Node 20 client in both eras.
 */
export async function docsCell(rt, node20) {
  const port = await freePort();
  let server;
  let cleanup = () => {};
  try {
    if (rt.kind === "workerd") {
      const made = workerdCommand(rt, "docs-worker.mjs", port);
      cleanup = made.cleanup;
      server = await startServer(made.argv, port);
    } else {
      const example = rt.kind === "deno" ? "docs-deno-server.mjs" : "docs-bun-server.mjs";
      server = await startServer(rt.command(script(example)), port, { env: { PORT: String(port) } });
    }
    const run = await runToEnd(node20.command(script("docs-check.mjs"), [`http://127.0.0.1:${port}/mcp`]));
    return reportCell(run, "example checked by Node 20");
  } catch (error) {
    return fail(String(error).slice(0, 500));
  } finally {
    await server?.stop();
    cleanup();
  }
}

/** Server cell: our Node 20 client, both eras, against `rt`'s server at `url`. */
export async function serverCell(node20, url) {
  const run = await runToEnd(node20.command(script("client-http.mjs"), [url]), { timeoutMs: 60_000 });
  return reportCell(run, "Node 20 client");
}

/**
 * Conformance cell: the official suite (scripts/conformance.mjs, the same runner as the conformance gate)
 * against `url`, both revisions; the not-scored scenarios are run and must pass too.
 */
export async function conformanceCell(url) {
  const work = mkdtempSync(path.join(tmpdir(), "mcpkit-runtimes-conf-"));
  const parts = [];
  let ok = true;
  let log = "";
  try {
    for (const revision of ["2026-07-28", "2025-11-25"]) {
      const summary = path.join(work, `${revision}.json`);
      const run = await runToEnd(
        [
          process.execPath,
          path.join(repoRoot, "scripts/conformance.mjs"),
          "server",
          "--url",
          url,
          "--requirements",
          revision,
          "--quiet",
          "--summary-json",
          summary,
        ],
        { cwd: repoRoot, timeoutMs: 300_000 },
      );
      let result;
      try {
        result = JSON.parse(readFileSync(summary, "utf8"));
      } catch {
        ok = false;
        parts.push(`${revision}: no summary (exit ${run.code})`);
        log += run.stdout.slice(-3000);
        continue;
      }
      // A scenario the suite itself skipped (no check ran, one SKIPPED) fails the tier rule on every
      // runtime, Node included: reported by name, not counted against the runtime.
      const suiteSkipped = (s) => s.counts.SUCCESS === 0 && s.counts.FAILURE === 0 && s.counts.SKIPPED > 0;
      if (!(result.total > 0)) {
        ok = false;
        parts.push(`${revision}: an empty report (no scored scenario ran)`);
        log += run.stdout.slice(-3000);
        continue;
      }
      const others = result.scenarios.filter((s) => !s.scored && !suiteSkipped(s));
      const skippedNames = result.scenarios
        .filter((s) => !s.scored && suiteSkipped(s))
        .map((s) => s.scenario);
      const othersPassed = others.filter((s) => s.verdict === "PASS").length;
      const failed = result.scenarios
        .filter((s) => s.verdict !== "PASS" && !(!s.scored && suiteSkipped(s)))
        .map((s) => s.scenario);
      if (failed.length > 0) {
        ok = false;
        log += `${revision} failed: ${failed.join(", ")}\n${run.stdout.slice(-4000)}\n`;
      }
      parts.push(
        `${revision} ${result.passed}/${result.total}` +
          (others.length ? ` +${othersPassed}/${others.length} not scored` : "") +
          (skippedNames.length ? ` (skipped by the suite: ${skippedNames.join(", ")})` : ""),
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return ok ? pass(parts.join(", ")) : fail(parts.join(", "), log);
}

/** Client cell for a script runtime: `rt` runs our client, both eras, against the Node 20 server. */
export async function clientCell(rt, url) {
  if (rt.kind === "workerd") return workerdClientCell(rt, url);
  const run = await runToEnd(rt.command(script("client-http.mjs"), [url]), { timeoutMs: 60_000 });
  return reportCell(run, `${rt.label} client`);
}

async function workerdClientCell(rt, url) {
  const port = await freePort();
  const { argv, cleanup } = workerdCommand(rt, "worker-client.mjs", port);
  let server;
  try {
    server = await startServer(argv, port);
    const response = await fetch(`http://127.0.0.1:${port}/?url=${encodeURIComponent(url)}`, {
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    try {
      return eraCell(JSON.parse(text), "worker client", server.output());
    } catch {
      return fail(`worker answered ${response.status}: ${text.slice(0, 300)}`, server.output());
    }
  } catch (error) {
    return fail(String(error), server?.output());
  } finally {
    await server?.stop();
    cleanup();
  }
}

/**
 * Browser cell: a page served by a test server on its own origin loads the bundled client and calls the
 * Node 20 server (started with that origin allowed and CORS on) cross-origin, in headless Chromium.
 */
export async function browserCell(node20, pagePort, chromium) {
  const pageOrigin = `http://127.0.0.1:${pagePort}`;
  const mcp = await startRuntimeServer(node20, pageOrigin);
  const bundle = readFileSync(script("client-browser.js"));
  const page = createServer((req, res) => {
    if (req.url === "/client.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      return;
    }
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(
        `<!doctype html><title>mcpkit</title><script>window.MCP_URL = ${JSON.stringify(mcp.url)};</script><script src="/client.js"></script>`,
      );
  });
  await new Promise((resolve) => page.listen(pagePort, "127.0.0.1", resolve));
  const profile = mkdtempSync(path.join(tmpdir(), "mcpkit-chromium-"));
  let browser;
  try {
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
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
    const tab = browser.pages()[0] ?? (await browser.newPage());
    const consoleLines = [];
    tab.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    await tab.goto(`${pageOrigin}/`);
    await tab.waitForFunction(() => window.MCP_REPORT || window.MCP_ERROR, undefined, { timeout: 60_000 });
    const { report, error, ua } = await tab.evaluate(() => ({
      report: window.MCP_REPORT,
      error: window.MCP_ERROR,
      ua: navigator.userAgent,
    }));
    if (error) return fail(`page error: ${error}`, consoleLines.join("\n"));
    const version = /Chrome\/(\d+)/.exec(ua)?.[1];
    return eraCell(
      report,
      `page on ${pageOrigin} (Chromium ${version}) → ${new URL(mcp.url).host}`,
      consoleLines.join("\n"),
    );
  } catch (error) {
    return fail(String(error), mcp.output());
  } finally {
    await browser?.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    await new Promise((resolve) => page.close(resolve));
    await mcp.stop();
  }
}

/**
 * Stdio cell: both directions with our Node 20 side — Node 20's `spawnStdioTransport` drives `rt`'s
 * `serveStdio`, and `rt`'s `spawnStdioTransport` drives Node 20's `serveStdio`; both eras each.
 */
export async function stdioCell(rt, node20) {
  const toRuntime = await runToEnd(
    node20.command(script("stdio-client.mjs"), rt.command(script("stdio-server.mjs"))),
    { timeoutMs: 60_000 },
  );
  const a = reportCell(toRuntime, `Node 20 → ${rt.label} server`);
  const fromRuntime = await runToEnd(
    rt.command(script("stdio-client.mjs"), node20.command(script("stdio-server.mjs"))),
    { timeoutMs: 60_000 },
  );
  const b = reportCell(fromRuntime, `${rt.label} client → Node 20`);
  if (a.status === "pass" && b.status === "pass") return pass(`${a.detail}; ${b.detail}`);
  return fail(
    [a, b]
      .filter((c) => c.status !== "pass")
      .map((c) => c.detail)
      .join("; "),
    [a.log, b.log].filter(Boolean).join("\n"),
  );
}
