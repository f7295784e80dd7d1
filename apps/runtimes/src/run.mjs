#!/usr/bin/env node
// `pnpm test:runtimes`: proves the runtime table of the README. Every cell is real processes of its runtime
// (a real headless Chromium page for the browser), two jobs at a time; prints the table, the detail of
// each cell, and exits 1 when a cell failed.
//
//   node apps/runtimes/src/run.mjs [--only node22,bun,...] [--conformance all|none|id,id] [--json FILE]
//
// --conformance picks the runtimes whose server runs the official suite (both revisions, the not-scored
// scenarios too). Default: every runtime but Node 20, whose suite the conformance gate runs already
// (apps/conformance-server, the same fixtures on node:http).
import { existsSync, writeFileSync } from "node:fs";
import { bundleAll } from "./runner/bundle.mjs";
import {
  browserCell,
  clientCell,
  conformanceCell,
  docsCell,
  serverCell,
  startRuntimeServer,
  stdioCell,
} from "./runner/cells.mjs";
import { gateExitCode } from "./runner/gate.mjs";
import { ensureRuntimes } from "./runner/install.mjs";
import { freePort } from "./runner/processes.mjs";
import { runtimes, versionOf } from "./runner/runtimes.mjs";

function option(name) {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  const prefixed = process.argv.find((a) => a.startsWith(`${name}=`));
  return prefixed?.slice(name.length + 1);
}

const all = runtimes(ensureRuntimes());
const only = option("--only")?.split(",");
const selected = all.filter((rt) => !only || only.includes(rt.id));
const conformanceOption = option("--conformance") ?? "default";
const conformanceFor = (rt) => {
  if (conformanceOption === "all") return true;
  if (conformanceOption === "none") return false;
  if (conformanceOption === "default") return rt.id !== "node20";
  return conformanceOption.split(",").includes(rt.id);
};

const ROWS = [
  { id: "server", label: "server: @mcpkit/server + Streamable HTTP, both eras" },
  { id: "conformance", label: "official conformance suite, server, both revisions" },
  { id: "client", label: "client: @mcpkit/client + HTTP transport, both eras" },
  { id: "stdio", label: "stdio: spawnStdioTransport / serveStdio with Node" },
  { id: "docs", label: "apps/docs example for the runtime, as documented" },
];
const applies = {
  server: (rt) => rt.kind !== "browser",
  conformance: (rt) => rt.kind !== "browser",
  client: () => true,
  stdio: (rt) => rt.kind !== "workerd" && rt.kind !== "browser",
  // The browser example's API is the browser cell's own; Node's examples are the rest of apps/docs.
  docs: (rt) => rt.kind === "bun" || rt.kind === "deno" || rt.kind === "workerd",
};

const started = Date.now();
const results = new Map(); // `${row}:${rt}` → cell
const set = (row, rt, cell) => {
  results.set(`${row}:${rt.id}`, cell);
  const mark = cell.status === "pass" ? "PASS" : cell.status === "fail" ? "FAIL" : "SKIP";
  console.log(`${mark} ${rt.label.padEnd(8)} ${row.padEnd(11)} ${cell.detail}`);
  if (cell.status === "fail" && cell.log) console.log(cell.log.replace(/^/gm, "     | "));
};

console.log("runtimes: bundling the fixtures with esbuild");
await bundleAll();
const node20 = all.find((rt) => rt.id === "node20");
const pagePort = await freePort();
// One Node 20 server answers every client cell (the browser cell starts its own, with its page's origin).
const shared = await startRuntimeServer(node20);

const jobs = [];
for (const rt of selected) {
  if (applies.server(rt)) {
    jobs.push(async () => {
      let server;
      try {
        server = await startRuntimeServer(rt);
      } catch (error) {
        set("server", rt, { status: "fail", detail: `did not start: ${String(error).slice(0, 300)}` });
        set("conformance", rt, { status: "fail", detail: "no server" });
        return;
      }
      try {
        set("server", rt, await serverCell(node20, server.url));
        if (conformanceFor(rt)) set("conformance", rt, await conformanceCell(server.url));
        else
          set("conformance", rt, {
            status: "skip",
            detail:
              rt.id === "node20" ? "run by the conformance gate (apps/conformance-server)" : "not selected",
          });
      } finally {
        await server.stop();
      }
    });
  }
  if (rt.kind === "browser") {
    jobs.push(async () => {
      if (!existsSync(rt.bin)) {
        set("client", rt, { status: "fail", detail: `${rt.bin} is missing (apt-get install chromium)` });
        return;
      }
      const { chromium } = await import("playwright-core");
      set("client", rt, await browserCell(node20, pagePort, chromium));
    });
  } else {
    jobs.push(async () => set("client", rt, await clientCell(rt, shared.url)));
  }
  if (applies.stdio(rt)) jobs.push(async () => set("stdio", rt, await stdioCell(rt, node20)));
  if (applies.docs(rt)) jobs.push(async () => set("docs", rt, await docsCell(rt, node20)));
}

// Two at a time: the machine has two cores, and a runtime's server and our client share them.
let next = 0;
await Promise.all(
  Array.from({ length: 2 }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      try {
        await job();
      } catch (error) {
        console.log(`runner error: ${error instanceof Error ? error.stack : String(error)}`);
        process.exitCode = 1;
      }
    }
  }),
);
await shared.stop();

const seconds = Math.round((Date.now() - started) / 1000);
const width = Math.max(...ROWS.map((r) => r.label.length));
const cols = selected.map((rt) => rt.label.padEnd(Math.max(rt.label.length, 4)));
console.log(`\n=== mcpkit runtimes (${seconds} s) ===`);
console.log(`${"".padEnd(width)} | ${cols.join(" | ")}`);
console.log(`${"-".repeat(width)}-|-${cols.map((c) => "-".repeat(c.length)).join("-|-")}`);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const row of ROWS) {
  const cells = selected.map((rt, i) => {
    const cell = results.get(`${row.id}:${rt.id}`);
    let mark = "—";
    if (applies[row.id](rt)) {
      if (!cell) mark = "none";
      else if (cell.status === "pass") mark = "pass";
      else if (cell.status === "fail") mark = "FAIL";
      else mark = "skip";
      if (mark === "pass") passed++;
      else if (mark === "skip") skipped++;
      else failed++;
    }
    return mark.padEnd(cols[i].length);
  });
  console.log(`${row.label.padEnd(width)} | ${cells.join(" | ")}`);
}
console.log("");
for (const rt of selected) console.log(`${rt.label.padEnd(8)} ${versionOf(rt)}  (${rt.bin})`);
const json = option("--json");
if (json) writeFileSync(json, `${JSON.stringify(Object.fromEntries(results), null, 2)}\n`);
console.log(`\nruntimes: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (gateExitCode({ passed, failed }) !== 0) process.exitCode = 1;
