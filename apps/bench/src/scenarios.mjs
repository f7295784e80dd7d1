import { bundleCases } from "./bundle-size.mjs";
import { scaleOutTable } from "./scale-out.mjs";
import { telemetryTable } from "./telemetry-cost.mjs";

// The scenarios of issue 9, as tables of cases. A case is one row: one implementation (and era / reply
// format) measured once per round in fresh processes. Rows of a table rotate their order every round.

const MIB = 1024 * 1024;

/** Every implementation, in table order; `raw` is the limit, `sdk-v1` the reference for ratios. */
export const IMPLS = ["raw", "sdk-v1", "sdk-v2", "mcpkit"];

/** Counts for a full run and for the smoke run (tiny counts, same shapes). */
export function profile(smoke) {
  return smoke
    ? {
        rounds: 1,
        warmupMs: 0,
        durationMs: 60,
        maxCalls: 30,
        manyMaxCalls: 100,
        blobReps: 1,
        coldReps: 1,
        importReps: 1,
      }
    : {
        rounds: 3,
        // Warm-up bounds (impl/common/driver.mjs ends it between the two once throughput is steady). HTTP
        // needs longer: node:http itself (client and server) takes ~2 s to reach steady speed here.
        warmupMs: 1500,
        minWarmupMs: 500,
        httpWarmupMs: 2500,
        httpMinWarmupMs: 1200,
        durationMs: 600,
        maxCalls: 1e9,
        manyMaxCalls: 1e9,
        blobReps: 3,
        coldReps: 3,
        importReps: 1,
        // A full run stops adding rounds (never below two) once the next would pass this budget.
        budgetSeconds: 270,
      };
}

/**
 * Servers measured alone on their 2026-07-28 path, each driven by the raw client in its modern form (no
 * implementation's own client in the way): mcpkit, the official SDK v2's stateless handler, and tmcp (a
 * server only; it has rows nowhere else). Included when `--impl` names them (tmcp by default too).
 */
export const RAW_DRIVEN = ["mcpkit", "sdk-v2", "tmcp"];

/** The HTTP variants of each implementation: which eras it serves (raw has no era). */
const HTTP_ERAS = {
  raw: [null],
  "sdk-v1": ["legacy"],
  "sdk-v2": ["legacy", "modern"],
  mcpkit: ["legacy", "modern"],
};

function label(impl, era) {
  return era ? `${impl} (${era})` : impl;
}

/**
 * The tables to run: [{ id, scenario, title, metric, cases: [...] }]. `impls` limits the implementations,
 * `only` the scenario numbers.
 */
export function buildTables({ smoke, impls = [...IMPLS, "tmcp"], only }) {
  const p = profile(smoke);
  const serverOnly = impls.filter((i) => !IMPLS.includes(i) && RAW_DRIVEN.includes(i));
  const drivenBy = RAW_DRIVEN.filter((i) => impls.includes(i));
  impls = impls.filter((i) => !serverOnly.includes(i));
  const echo = (extra = {}) => ({
    kind: "echo",
    warmupMs: p.warmupMs,
    minWarmupMs: p.minWarmupMs ?? 0,
    durationMs: p.durationMs,
    maxCalls: p.maxCalls,
    ...extra,
  });
  const httpEcho = (extra = {}) =>
    echo({ warmupMs: p.httpWarmupMs ?? p.warmupMs, minWarmupMs: p.httpMinWarmupMs ?? 0, ...extra });
  const tables = [];
  const add = (t) => {
    if (!only || only.includes(t.scenario)) tables.push(t);
  };
  const stdioCase = (impl, workload, extra = {}) => ({
    impl,
    label: impl,
    transport: "stdio",
    era: null,
    tools: 3,
    workload,
    ...extra,
  });
  const httpCases = (reply, workload, tools = 3) => [
    ...impls.flatMap((impl) =>
      (HTTP_ERAS[impl] ?? [null]).map((era) => ({
        impl,
        label: label(impl, era),
        transport: "http",
        era,
        reply,
        tools,
        workload,
      })),
    ),
    // The same workload with the raw client in front of each server's modern path (`client`: the program).
    ...drivenBy.map((impl) => ({
      impl,
      client: "raw",
      label: `raw client → ${impl} (modern)`,
      transport: "http",
      era: "modern",
      reply,
      tools,
      workload,
    })),
  ];

  add({
    id: "s1",
    scenario: 1,
    title: "1. stdio, sequential tools/call echo",
    metric: "rate",
    cases: impls.map((i) => stdioCase(i, echo())),
  });
  add({
    id: "s2",
    scenario: 2,
    title: "2. stdio, 32 calls in flight on one connection",
    metric: "rate",
    cases: impls.map((i) => stdioCase(i, echo({ inflight: 32 }))),
  });
  for (const mib of [1, 8, 15]) {
    add({
      id: `s3-${mib}`,
      scenario: 3,
      title: `3. stdio, one tool result of ${mib} MiB (ms per call)`,
      metric: "ms",
      cases: impls.map((i) =>
        stdioCase(
          i,
          { kind: "blob", bytes: mib * MIB, reps: p.blobReps },
          // The official SDKs close the connection on a frame this large; that is a finding, not a bench error.
          { expectFail: mib === 15 && (i === "sdk-v1" || i === "sdk-v2") },
        ),
      ),
    });
  }
  for (const reply of ["json", "sse"]) {
    add({
      id: `s4-${reply}`,
      scenario: 4,
      title: `4. HTTP keep-alive, sequential, ${reply === "json" ? "JSON" : "SSE"} replies`,
      metric: "rate",
      cases: httpCases(reply, httpEcho()),
    });
  }
  add({
    id: "s5",
    scenario: 5,
    title: "5. HTTP, 50 concurrent clients (JSON replies), sequential calls each",
    metric: "rate",
    cases: httpCases(
      "json",
      httpEcho({ clients: 50, durationMs: smoke ? p.durationMs : 1000, maxCalls: p.manyMaxCalls }),
    ),
  });
  add({
    id: "s6",
    scenario: 6,
    title: "6. 100 registered tools vs 3 (HTTP sequential, JSON replies): list + calls",
    metric: "rate",
    // The per-call cost of the registry size is a ratio to the same implementation with 3 tools: scenario
    // 4's JSON row of the same round (same workload), or, when scenario 4 is not run, the same server with
    // 3 tools measured right before or after (order alternating by round).
    paired: true,
    cases: httpCases("json", httpEcho({ listReps: smoke ? 1 : 20, expectTools: 100 }), 100).map((c) => ({
      ...c,
      pairTools: 3,
    })),
  });
  add({
    id: "s7",
    scenario: 7,
    title: "7. cold start over stdio: spawn → connected → tools listed",
    metric: "ms",
    cases: impls.map((i) => stdioCase(i, { kind: "cold", reps: p.coldReps })),
  });
  for (const side of ["client", "server"]) {
    add({
      id: `s8-${side}`,
      scenario: 8,
      title: `8. import time of the ${side} (fresh process, ms)`,
      metric: "ms",
      cases: impls.map((impl) => ({ impl, label: impl, kind: "import", side, reps: p.importReps })),
    });
  }
  if (impls.includes("mcpkit")) {
    add(
      scaleOutTable(
        httpEcho({ clients: 50, durationMs: smoke ? p.durationMs : 1000, maxCalls: p.manyMaxCalls }),
      ),
    );
  }
  add({
    id: "s9",
    scenario: 9,
    title: "9. browser client bundle: client + Streamable HTTP transport, esbuild for the browser, minified",
    metric: "bytes",
    cases: bundleCases(impls),
  });
  if (impls.includes("mcpkit")) add(telemetryTable(echo(), httpEcho()));
  return tables;
}

/** What each implementation's client or server imports (resolved from apps/bench, plain node, built JS). */
export const IMPORTS = {
  raw: { client: ["node:child_process", "node:http"], server: ["node:http"] },
  "sdk-v1": {
    client: [
      "@modelcontextprotocol/sdk/client/index.js",
      "@modelcontextprotocol/sdk/client/stdio.js",
      "@modelcontextprotocol/sdk/client/streamableHttp.js",
    ],
    server: [
      "@modelcontextprotocol/sdk/server/mcp.js",
      "@modelcontextprotocol/sdk/server/stdio.js",
      "@modelcontextprotocol/sdk/server/streamableHttp.js",
      "zod",
    ],
  },
  "sdk-v2": {
    client: ["@modelcontextprotocol/client", "@modelcontextprotocol/client/stdio"],
    server: [
      "@modelcontextprotocol/server",
      "@modelcontextprotocol/server/stdio",
      "@modelcontextprotocol/node",
      "zod",
    ],
  },
  mcpkit: {
    client: ["@mcpkit/client", "@mcpkit/transport-stdio", "@mcpkit/transport-http"],
    server: [
      "@mcpkit/server",
      "@mcpkit/transport-stdio",
      "@mcpkit/transport-http",
      "@mcpkit/transport-http/node",
    ],
  },
};
