// Scenario 11, the cost of telemetry (issue 19): mcpkit's stdio sequential and HTTP sequential (JSON
// replies, each era) calls/s three ways, side by side: plain (`telemetry: false` on client and server), the
// OpenTelemetry API installed with no SDK registered (the default whenever @opentelemetry/api is there),
// and the real SDK registered with exporters that drop everything (impl/mcpkit/otel.mjs). Target: the API
// without an SDK costs ≤ 3% of the plain speed.
import { formatCount, serverCpuByLabel } from "./stats.mjs";

export const TELEMETRY_SCENARIO = 11;

/** The target of issue 19: the API without an SDK costs at most this share of the plain speed. */
export const NO_SDK_MAX_COST = 3;

const MODES = [
  ["off", "plain (telemetry: false)"],
  ["api", "API, no SDK"],
  ["sdk", "SDK, dropping exporters"],
];

/** The scenario's table: `stdio` and `http` are the echo workloads of scenarios 1 and 4. */
export function telemetryTable(stdio, http) {
  const cases = [];
  const groups = [
    ["stdio", null, stdio],
    ["http", "modern", http],
    ["http", "legacy", http],
  ];
  for (const [transport, era, workload] of groups) {
    const where = transport === "stdio" ? "stdio" : `HTTP ${era}`;
    for (const [telemetry, name] of MODES) {
      cases.push({
        impl: "mcpkit",
        label: `${where}, ${name}`,
        group: where,
        transport,
        era,
        reply: "json",
        tools: 3,
        telemetry,
        workload,
      });
    }
  }
  return {
    id: "s11",
    scenario: TELEMETRY_SCENARIO,
    title:
      "11. telemetry cost: mcpkit sequential calls, plain vs OpenTelemetry API without SDK vs SDK with dropping exporters (stdio; HTTP JSON replies, each era)",
    metric: "rate",
    telemetry: true,
    cases,
  };
}

const n0 = formatCount;
const n1 = (x) => (x === undefined ? "–" : x < 10 ? x.toFixed(2) : x.toFixed(1));
const signed = (x) => (x === undefined || !Number.isFinite(x) ? "–" : `${x >= 0 ? "+" : ""}${x.toFixed(1)}%`);

/** The table in Markdown: each row's speed and server CPU per call relative to the plain row of its group. */
export function telemetryMarkdown(t, rows) {
  const lines = [`### ${t.title}`, ""];
  const head = [
    "row",
    "calls/s median (min–max)",
    "p50 ms",
    "p99 ms",
    "cost vs plain (calls/s)",
    "server CPU µs/call",
    "cost vs plain (server CPU)",
  ];
  const cpu = serverCpuByLabel(t);
  const plainOf = (c) => t.cases.find((p) => p.group === c.group && p.telemetry === "off");
  lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
  const verdicts = [];
  for (const c of t.cases) {
    const r = rows[c.label];
    const plain = rows[plainOf(c).label];
    const value = r.ok
      ? `${n0(r.value)} (${n0(r.min)}–${n0(r.max)})`
      : `fails (${String(r.error).slice(0, 70)})`;
    const rateCost =
      r.ok && plain.ok && c.telemetry !== "off" ? (1 - r.value / plain.value) * 100 : undefined;
    const base = cpu[plainOf(c).label];
    const cpuCost =
      c.telemetry !== "off" && cpu[c.label] !== undefined && base
        ? (cpu[c.label] / base - 1) * 100
        : undefined;
    lines.push(
      `| ${c.label} | ${value} | ${n1(r.p50)} | ${n1(r.p99)} | ${signed(rateCost)} | ${n1(cpu[c.label])} | ${signed(cpuCost)} |`,
    );
    if (c.telemetry === "api" && rateCost !== undefined) {
      verdicts.push(
        `${c.group} ${signed(rateCost)} (${rateCost <= NO_SDK_MAX_COST ? "met" : "**not met**"})`,
      );
    }
  }
  lines.push("");
  if (verdicts.length) {
    lines.push(
      `Target of issue 19: the API without an SDK costs ≤ ${NO_SDK_MAX_COST}% of the plain speed: ${verdicts.join("; ")}. A negative cost is noise: the two rows do the same work per message.`,
      "",
    );
  }
  return lines.join("\n");
}
