// `pnpm soak [--minutes N] [--sessions N] [--no-sessions] [--out dir]`: mcpkit and the official SDK v1
// server side by side in one run, each with 50 HTTP clients (mcpkit: half 2026-07-28, half 2025-11-25;
// the SDK v1 serves only the legacy era) and 8 stdio sessions doing the mix of workload.mjs; then the
// memory per legacy session of each. Prints the table, writes it (and the raw figures as JSON) to
// --out (default apps/soak/results), and exits 1 when mcpkit broke a promise: an unexpected error,
// anything of its insides on the wire, a session left after idle expiry, a stdio child left running, or
// more open handles at the end than at the start.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { appDir, startHttpServer } from "./procs.mjs";
import { measureSessions } from "./sessions.mjs";
import { trendOf } from "./trend.mjs";
import { createWireScan } from "./wire-scan.mjs";
import { createTally, runClient } from "./workload.mjs";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "2" },
    sessions: { type: "string", default: "1000" },
    "no-sessions": { type: "boolean", default: false },
    "http-clients": { type: "string", default: "50" },
    "stdio-clients": { type: "string", default: "8" },
    out: { type: "string", default: join(appDir, "results") },
    snapshots: { type: "string" },
  },
});
const minutes = Number(args.minutes);
const durationMs = minutes * 60_000;
const SAMPLE_MS = 10_000;
// Sessions idle this long end (mcpkit); short, so the end of the run sees them go.
const IDLE_MS = 10_000;
// Warm-up: connections, pools and the JIT settle (compiled code grows for the first minutes).
const warmupMs = Math.min(60_000, durationMs / 4);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);

async function stats(server) {
  const res = await fetch(`${server.base}/stats`, { headers: { connection: "close" } });
  return res.json();
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function soakSide(impl) {
  const snapshotDir = impl === "mcpkit" && args.snapshots ? resolve(args.snapshots) : undefined;
  if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
  const server = await startHttpServer(impl, { idleMs: IDLE_MS, snapshotDir });
  const snapshot = (name) =>
    fetch(`${server.base}/heap-snapshot?name=${name}`, { headers: { connection: "close" } }).then((r) =>
      r.json(),
    );
  const tally = createTally();
  const scan = createWireScan();
  const stop = { done: false };
  await sleep(500);
  const start = await stats(server);
  const t0 = Date.now();
  const samples = [];
  const snapshots = {};
  const clients = [];
  const httpClients = Number(args["http-clients"]);
  for (let i = 0; i < httpClients; i++) {
    // mcpkit serves both eras on one endpoint; the SDK v1 only the legacy one (auto falls back to it).
    const era = impl === "mcpkit" ? (i % 2 === 0 ? "modern" : "legacy") : undefined;
    clients.push(runClient({ kind: "http", url: server.url, era, impl }, `h${i}`, tally, scan, stop));
  }
  for (let i = 0; i < Number(args["stdio-clients"]); i++) {
    clients.push(runClient({ kind: "stdio", impl }, `s${i}`, tally, scan, stop));
  }
  while (Date.now() - t0 < durationMs) {
    await sleep(Math.min(SAMPLE_MS, durationMs - (Date.now() - t0)));
    const s = await stats(server);
    samples.push({ t: Date.now() - t0, rss: s.rss, heap: s.heap, sessions: s.sessions });
    // Heap snapshots under load (--snapshots): the first sample after warm-up and the last one.
    if (snapshotDir && !snapshots.early && samples.at(-1).t >= warmupMs)
      snapshots.early = await snapshot("early");
  }
  if (snapshotDir) snapshots.late = await snapshot("late");
  stop.done = true;
  await Promise.all(clients);
  // The clients' idle keep-alive sockets are the driver's pool, not the server's: closed before counting.
  tally.fetch.destroy();
  // A stdio server must exit once its stdin closed (no zombie): each gets a bounded while.
  const deadline = Date.now() + 5_000;
  while (tally.children.some((c) => c.exitCode === null && c.signalCode === null) && Date.now() < deadline) {
    await sleep(100);
  }
  const stdioLeft = tally.children.filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of stdioLeft) c.kill("SIGKILL");
  // Sessions abandoned without DELETE end by idle expiry (mcpkit); bounded wait.
  let end = await stats(server);
  const until = Date.now() + IDLE_MS + 5_000;
  while ((end.sessions > 0 || sum(end.handles) > sum(start.handles)) && Date.now() < until) {
    await sleep(1000);
    end = await stats(server);
  }
  await server.close();
  const steady = samples.filter((s) => s.t >= warmupMs);
  const sorted = tally.latencies.sort((a, b) => a - b);
  return {
    impl,
    calls: tally.calls,
    expected: tally.expected,
    unexpected: tally.unexpected,
    errors: tally.errors,
    abandoned: tally.abandoned,
    reconnects: tally.reconnects,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    rssTrend: trendOf(steady.map((s) => [s.t, s.rss])),
    heapTrend: trendOf(steady.map((s) => [s.t, s.heap])),
    rssEndMb: end.rss / 2 ** 20,
    heapStartMb: start.heap / 2 ** 20,
    heapPeakMb: Math.max(0, ...samples.map((s) => s.heap)) / 2 ** 20,
    heapEndMb: end.heap / 2 ** 20,
    peakRssMb: end.peakRss / 2 ** 20,
    handlesStart: start.handles,
    handlesEnd: end.handles,
    sessionsPeak: Math.max(0, ...samples.map((s) => s.sessions)),
    sessionsEnd: end.sessions,
    stdioChildren: tally.children.length,
    stdioLeftRunning: stdioLeft.length,
    wireBytes: scan.bytes,
    wireLeaks: scan.leaks,
    wireSamples: scan.samples,
    samples,
    snapshots,
    stderrTail: server.stderr().split("\n").filter(Boolean).slice(-5),
  };
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");
const handles = (h) =>
  `${sum(h)} (${Object.entries(h)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")})`;

/** `flat: +12.3 ± 40.1 KiB/min (+0.1 MiB over the window, scatter 0.2 MiB; second half +3.0)`. */
const signed = (n, d = 1) => `${n >= 0 ? "+" : ""}${fmt(n, d)}`;
const trendText = (t) =>
  `${t.verdict}: ${signed(t.kibPerMin)} ± ${fmt(t.ciKibPerMin)} KiB/min (${signed(t.riseMib, 2)} MiB over the window, scatter ${fmt(t.scatterMib, 2)} MiB; second half ${signed(t.secondHalfKibPerMin)} KiB/min)`;

function table(results, sessions) {
  const rows = [
    ["calls (steps run)", (r) => String(r.calls)],
    ["unexpected errors", (r) => String(r.unexpected)],
    ["expected errors (cancel, timeout)", (r) => String(r.expected)],
    ["sessions abandoned / reconnects", (r) => `${r.abandoned} / ${r.reconnects}`],
    ["p50 / p99 (ms)", (r) => `${fmt(r.p50)} / ${fmt(r.p99)}`],
    ["heap after GC: trend after warm-up", (r) => trendText(r.heapTrend)],
    ["RSS: trend after warm-up", (r) => trendText(r.rssTrend)],
    ["RSS at end / peak (MiB)", (r) => `${fmt(r.rssEndMb)} / ${fmt(r.peakRssMb)}`],
    [
      "heap after GC: start / highest sample / end (MiB)",
      (r) => `${fmt(r.heapStartMb)} / ${fmt(r.heapPeakMb)} / ${fmt(r.heapEndMb)}`,
    ],
    ["open handles start", (r) => handles(r.handlesStart)],
    ["open handles end", (r) => handles(r.handlesEnd)],
    ["server sessions peak / end", (r) => `${r.sessionsPeak} / ${r.sessionsEnd}`],
    ["stdio children left running", (r) => `${r.stdioLeftRunning} of ${r.stdioChildren}`],
    ["stack traces / paths on the wire", (r) => `${r.wireLeaks} in ${fmt(r.wireBytes / 2 ** 20)} MiB`],
  ];
  const lines = [
    `# Soak: ${minutes} min, ${args["http-clients"]} HTTP + ${args["stdio-clients"]} stdio clients per side, samples every ${SAMPLE_MS / 1000} s (trends fitted after a ${warmupMs / 1000} s warm-up), idle expiry ${IDLE_MS / 1000} s`,
    "",
    `| | ${results.map((r) => r.impl).join(" | ")} |`,
    `|---|${results.map(() => "---").join("|")}|`,
    ...rows.map(([label, f]) => `| ${label} | ${results.map(f).join(" | ")} |`),
  ];
  if (sessions.length > 0) {
    lines.push(
      "",
      `## Memory per legacy session (${sessions[0].count} of each, heap after GC; RSS in brackets)`,
      "",
      "| | idle session | open session (GET stream) | heap left after DELETE of all | sessions left |",
      "|---|---|---|---|---|",
      ...sessions.map(
        (s) =>
          `| ${s.impl} | ${fmt(s.idleHeap / 1024)} KiB (${fmt(s.idleRss / 1024)}) | ${fmt(s.openHeap / 1024)} KiB (${fmt(s.openRss / 1024)}) | ${fmt(s.heapAfterDelete / 2 ** 20)} MiB | ${s.sessionsAfterDelete} |`,
      ),
    );
  }
  for (const r of results) {
    if (r.errors.length > 0)
      lines.push(
        "",
        `${r.impl} unexpected errors (first ${r.errors.length}):`,
        ...r.errors.map((e) => `- ${e}`),
      );
    if (r.wireSamples.length > 0)
      lines.push(
        "",
        `${r.impl} on the wire:`,
        ...r.wireSamples.map((e) => `- \`${e.replace(/\n/g, "\\n")}\``),
      );
  }
  return lines.join("\n");
}

const results = await Promise.all([soakSide("mcpkit"), soakSide("sdk-v1")]);
const sessions = [];
if (!args["no-sessions"]) {
  for (const impl of ["mcpkit", "sdk-v1"]) sessions.push(await measureSessions(impl, Number(args.sessions)));
}
const report = table(results, sessions);
console.log(report);
mkdirSync(args.out, { recursive: true });
writeFileSync(join(args.out, "latest.md"), `${report}\n`);
writeFileSync(join(args.out, "latest.json"), `${JSON.stringify({ minutes, results, sessions }, null, 2)}\n`);

const ours = results.find((r) => r.impl === "mcpkit");
const broken = [];
if (ours.unexpected > 0) broken.push(`${ours.unexpected} unexpected errors`);
if (ours.wireLeaks > 0) broken.push(`${ours.wireLeaks} responses with stack traces or paths`);
if (ours.sessionsEnd > 0) broken.push(`${ours.sessionsEnd} sessions left after idle expiry`);
if (ours.stdioLeftRunning > 0) broken.push(`${ours.stdioLeftRunning} stdio servers still running`);
if (sum(ours.handlesEnd) > sum(ours.handlesStart))
  broken.push("more open handles at the end than at the start");
if (broken.length > 0) {
  console.error(`soak: mcpkit failed: ${broken.join("; ")}`);
  process.exit(1);
}
