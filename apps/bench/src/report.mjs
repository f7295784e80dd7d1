// The Markdown report: one table per scenario (medians with min–max over rounds, ratios to official v1 and
// share of the raw limit), installed sizes, and the issue's targets checked for mcpkit.
import { bundleTableMarkdown } from "./bundle-size.mjs";
import { scaleOutMarkdown } from "./scale-out.mjs";
import { formatCount, median } from "./stats.mjs";
import { telemetryMarkdown } from "./telemetry-cost.mjs";

const MIB = 1024 * 1024;

function summary(c, metric) {
  const ok = c.samples.filter((s) => s.ok);
  const failed = c.samples.length - ok.length;
  const key = metric === "rate" ? "callsPerSec" : "ms";
  const values = ok.map((s) => s[key]);
  const pick = (f) => {
    const v = ok.map(f).filter((x) => typeof x === "number" && Number.isFinite(x));
    return v.length ? median(v) : undefined;
  };
  return {
    ok: ok.length > 0,
    failed,
    total: c.samples.length,
    error: c.samples.find((s) => !s.ok)?.error,
    value: values.length ? median(values) : undefined,
    min: values.length ? Math.min(...values) : undefined,
    max: values.length ? Math.max(...values) : undefined,
    p50: pick((s) => s.p50),
    p99: pick((s) => s.p99),
    listMs: pick((s) => s.listMs),
    ofBase: pick((s) => (s.baseCallsPerSec ? (s.callsPerSec / s.baseCallsPerSec) * 100 : undefined)),
    clientRss: pick((s) => s.clientPeakRss),
    serverRss: pick((s) => s.server?.peakRss),
  };
}

const n0 = formatCount;
const n1 = (x) =>
  x === undefined
    ? "–"
    : x < 10
      ? x.toFixed(2)
      : x < 100
        ? x.toFixed(1)
        : Math.round(x).toLocaleString("en-US");
const mib = (x) => (x === undefined ? "–" : (x / MIB).toFixed(1));
const pct = (x) => (x === undefined || !Number.isFinite(x) ? "–" : `${Math.round(x)}%`);
const times = (x) => (x === undefined || !Number.isFinite(x) ? "–" : `${x.toFixed(2)}×`);

/** Speed relative to a reference row (>1 is faster), for a rate or a time. */
function speedRatio(metric, v, ref) {
  if (v === undefined || ref === undefined || ref === 0 || v === 0) return undefined;
  return metric === "rate" ? v / ref : ref / v;
}

function cell(s, fmt) {
  if (!s.ok) return `fails (${shortError(s.error)})`;
  const base = `${fmt(s.value)} (${fmt(s.min)}–${fmt(s.max)})`;
  return s.failed ? `${base}, ${s.failed}/${s.total} runs failed` : base;
}

function shortError(e = "") {
  return e.replace(/\s+/g, " ").slice(0, 70);
}

/**
 * Summaries of every table: { [tableId]: { [label]: summary } }, with speed ratios to v1 and raw added.
 */
export function summarize(tables) {
  const out = {};
  for (const t of tables) {
    const rows = {};
    for (const c of t.cases) {
      // Over stdio each client negotiates its default era; the row says which one it got.
      const got = c.transport === "stdio" ? c.samples.find((s) => s.ok && s.era)?.era : undefined;
      rows[c.label] = {
        ...summary(c, t.metric),
        impl: c.impl,
        era: c.era,
        shown: got ? `${c.label} (${got})` : c.label,
      };
    }
    const ref = (impl) => Object.values(rows).find((r) => r.impl === impl && r.ok)?.value;
    const v1 = ref("sdk-v1");
    const raw = ref("raw");
    for (const r of Object.values(rows)) {
      r.vsV1 = speedRatio(t.metric, r.value, v1);
      r.ofRaw = t.scenario === 8 ? undefined : (speedRatio(t.metric, r.value, raw) ?? Number.NaN) * 100;
    }
    out[t.id] = rows;
  }
  return out;
}

function tableMarkdown(t, rows) {
  if (t.metric === "bytes") return bundleTableMarkdown(t);
  if (t.scaleOut) return scaleOutMarkdown(t, rows);
  if (t.telemetry) return telemetryMarkdown(t, rows);
  const lines = [`### ${t.title}`, ""];
  if (t.metric === "rate") {
    const base = t.paired;
    const head = [
      "implementation",
      "calls/s median (min–max)",
      "p50 ms",
      "p99 ms",
      "client RSS MiB",
      "server RSS MiB",
      "vs v1",
      "% of raw",
    ];
    if (base) head.splice(2, 0, "tools/list ms", "% of own 3-tool speed");
    lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
    for (const r of Object.values(rows)) {
      const cells = [
        r.shown,
        cell(r, n0),
        n1(r.p50),
        n1(r.p99),
        mib(r.clientRss),
        mib(r.serverRss),
        times(r.vsV1),
        pct(r.ofRaw),
      ];
      if (base) cells.splice(2, 0, n1(r.listMs), pct(r.ofBase));
      lines.push(`| ${cells.join(" | ")} |`);
    }
  } else {
    const head = ["implementation", "ms median (min–max)", "vs v1 (speed)"];
    if (t.scenario !== 8) head.push("% of raw speed", "server RSS MiB");
    lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
    for (const r of Object.values(rows)) {
      const cells = [r.shown, cell(r, n1), times(r.vsV1)];
      if (t.scenario !== 8) cells.push(pct(r.ofRaw), mib(r.serverRss));
      lines.push(`| ${cells.join(" | ")} |`);
    }
  }
  lines.push("");
  return lines.join("\n");
}

function sizesMarkdown(sizes) {
  const lines = ["### 8. installed runtime closure, client ∪ server (`npm install --omit=dev`)", ""];
  lines.push("| implementation | size MiB | packages | largest (MiB) | installed |", "|---|---|---|---|---|");
  for (const s of sizes) {
    if (s.error) {
      lines.push(`| ${s.impl} | fails (${shortError(s.error)}) | – | – | – |`);
      continue;
    }
    const largest = (s.largest ?? []).map((p) => `${p.name} ${(p.bytes / MIB).toFixed(2)}`).join(", ") || "–";
    lines.push(`| ${s.impl} | ${(s.bytes / MIB).toFixed(2)} | ${s.packages} | ${largest} | ${s.what} |`);
  }
  lines.push("");
  return lines.join("\n");
}

/** The issue's targets for mcpkit, each { target, measured, met } (met undefined when not measured). */
export function checkTargets(all, sizes) {
  const get = (id, label) => all[id]?.[label];
  const out = [];
  const share = (name, id, label, min, v1Note) => {
    const r = get(id, label);
    const v = r?.ok ? r.ofRaw : undefined;
    // Without a raw figure in the same run (raw left out, or failed) there is nothing to compare.
    if (r?.ok && !Number.isFinite(v)) return;
    out.push({
      target: `${name} ≥ ${min}% of raw (${v1Note})`,
      measured: r ? (r.ok ? pct(v) : "fails") : "not run",
      met: r ? Boolean(r.ok && v >= min) : undefined,
    });
  };
  share("stdio sequential", "s1", "mcpkit", 90, "v1 in issue: 71%");
  share("stdio 32 in flight", "s2", "mcpkit", 60, "v1: 24%");
  share("8 MiB result", "s3-8", "mcpkit", 80, "v1: 51%");
  const big = get("s3-15", "mcpkit");
  out.push({
    target: "15 MiB result works",
    measured: big ? (big.ok && !big.failed ? "works" : "fails") : "not run",
    met: big ? big.ok && !big.failed : undefined,
  });
  for (const reply of ["json", "sse"]) {
    for (const era of ["legacy", "modern"])
      share(
        `HTTP sequential, ${reply}, ${era}`,
        `s4-${reply}`,
        `mcpkit (${era})`,
        60,
        "v1: 22%, v2 modern 14%",
      );
  }
  for (const era of ["legacy", "modern"]) {
    share(`HTTP 50 clients, ${era}`, "s5", `mcpkit (${era})`, 50, "v1: 15%");
    const r = get("s5", `mcpkit (${era})`);
    const v1 = get("s5", "sdk-v1 (legacy)");
    if (r) {
      const ok = r.ok && !r.failed && v1?.serverRss !== undefined && r.serverRss <= v1.serverRss / 2;
      out.push({
        target: `HTTP 50 clients, ${era}: no error, server RSS ≤ ½ of v1's`,
        measured: `${r.failed ? `${r.failed} failed, ` : ""}${mib(r.serverRss)} vs v1 ${mib(v1?.serverRss)} MiB`,
        met: ok,
      });
    }
    const many = get("s6", `mcpkit (${era})`);
    if (many) {
      const v = many.ok ? many.ofBase : undefined;
      out.push({
        target: `100 tools cost nothing per call, ${era} (≥ 90% of own 3-tool speed; v2 modern: 24%)`,
        measured: pct(v),
        met: v !== undefined && v >= 90,
      });
    }
  }
  share("cold start", "s7", "mcpkit", 60, "v1: 26%");
  const imp = get("s8-client", "mcpkit");
  out.push({
    target: "client import < 20 ms (v1: 135 ms)",
    measured: imp?.ok ? `${n1(imp.value)} ms` : imp ? "fails" : "not run",
    met: imp ? Boolean(imp.ok && imp.value < 20) : undefined,
  });
  const size = sizes.find((s) => s.impl === "mcpkit");
  out.push({
    target: "installed closure, client ∪ server < 3 MiB (v1: 16.6, v2: 22.9)",
    measured: size ? (size.error ? "fails" : `${(size.bytes / MIB).toFixed(2)} MiB`) : "not run",
    met: size ? !size.error && size.bytes < 3 * MIB : undefined,
  });
  return out;
}

/** The whole report as Markdown. */
export function buildReport({ tables, sizes, meta }) {
  const all = summarize(tables);
  const parts = [
    `# mcpkit bench${meta.smoke ? " (smoke: tiny counts, figures meaningless)" : ""}`,
    "",
    `${meta.date} · Node ${meta.node} · ${meta.rounds} round(s), implementations rotated each round, fresh processes per measurement · ${meta.pin} · ran ${meta.seconds.toFixed(0)} s`,
    "",
    'Medians over rounds with min–max. "vs v1" is speed relative to the official SDK v1 (>1 is faster); "% of raw" is the share of the hand-written raw limit\'s speed. RSS is peak (VmHWM). Throughput is measured after a warm-up that ends when three 200 ms windows agree within 5 % (stdio: 0.5–1.5 s; HTTP: 1.5–3 s, as node:http itself needs ~2 s here), so JIT compilation is not what is timed; cold start (7) is the start-up figure. Absolute numbers drift on shared machines; compare within one run.',
    "",
  ];
  for (const n of meta.notes) parts.push(`> ${n}`, "");
  for (const t of tables) parts.push(tableMarkdown(t, all[t.id]));
  if (sizes.length) parts.push(sizesMarkdown(sizes));
  const targets = checkTargets(all, sizes).filter((t) => t.met !== undefined);
  if (targets.length) {
    parts.push("### targets of issue 9 (mcpkit)", "", "| target | measured | met |", "|---|---|---|");
    for (const t of targets) parts.push(`| ${t.target} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`);
    parts.push("");
  }
  return parts.join("\n");
}
