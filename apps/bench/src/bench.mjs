// The harness: runs the tables round by round, implementations rotated, each measurement in fresh
// processes, then sizes the installed runtime closures and builds the report.
import { existsSync } from "node:fs";
import path from "node:path";
import { bundleSize } from "./bundle-size.mjs";
import { detectPinning } from "./pin.mjs";
import { appDir, programPath, runProgram, serverCommand, startHttpServer } from "./procs.mjs";
import { buildReport } from "./report.mjs";
import { measureScaleOut, redisUnreachable, SCALE_OUT_SCENARIO } from "./scale-out.mjs";
import { buildTables, IMPLS, IMPORTS, profile } from "./scenarios.mjs";
import { measureSizes } from "./sizes.mjs";
import { median, rotate } from "./stats.mjs";

/**
 * Why mcpkit cannot be benchmarked yet (its client, server or transports missing from the workspace or
 * from this app's dependencies), or undefined when it can.
 */
export function mcpkitMissing() {
  const need = ["client", "server", "transport-stdio", "transport-http"];
  const repo = path.resolve(appDir, "../..");
  const absent = need.filter((p) => !existsSync(path.join(repo, "packages", p, "src/index.ts")));
  if (absent.length) return `packages not in the workspace yet: ${absent.join(", ")}`;
  const linked = need.filter(
    (p) => !existsSync(path.join(appDir, "node_modules/@mcpkit", p, "package.json")),
  );
  if (linked.length) return `not dependencies of @mcpkit/bench yet: ${linked.join(", ")}`;
  return undefined;
}

/**
 * Runs the benchmark. Options: smoke (tiny counts), only (scenario numbers), impls, rounds, sizes (false to
 * skip installed sizes), log (progress lines). Resolves { tables, sizes, report, failures, meta }.
 */
export async function runBench(options = {}) {
  const smoke = Boolean(options.smoke);
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const p = profile(smoke);
  const rounds = options.rounds ?? p.rounds;
  const notes = [];
  // tmcp is a server only: it has rows only where the raw client drives it (RAW_DRIVEN).
  let impls = options.impls ?? [...IMPLS, "tmcp"];
  const missing = impls.includes("mcpkit") ? mcpkitMissing() : undefined;
  if (missing) {
    impls = impls.filter((i) => i !== "mcpkit");
    notes.push(`mcpkit left out: ${missing}.`);
  }
  const pin = detectPinning();
  let tables = buildTables({ smoke, impls, only: options.only });
  if (tables.some((t) => t.scaleOut)) {
    const why = await redisUnreachable();
    if (why) {
      tables = tables.filter((t) => !t.scaleOut);
      notes.push(`scenario ${SCALE_OUT_SCENARIO} (scale-out) left out: Redis unreachable (${why}).`);
    }
  }
  // --duration stretches every timed window (useful with --profile, so steady state outweighs start-up).
  if (options.durationMs) {
    for (const t of tables)
      for (const c of t.cases) if (c.workload?.durationMs) c.workload.durationMs = options.durationMs;
  }
  if (options.warmupMs !== undefined) {
    for (const t of tables)
      for (const c of t.cases) if (c.workload?.warmupMs !== undefined) c.workload.warmupMs = options.warmupMs;
  }
  for (const t of tables) for (const c of t.cases) c.samples = [];
  const started = performance.now();
  // A full run measures one thing at a time. The smoke run proves only that everything works, so it runs
  // a few measurements side by side to stay well under a minute.
  const parallel = options.parallel ?? (smoke ? 3 : 1);
  const worker = async (queue) => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { r, t, c } = job;
      const t0 = performance.now();
      const flags = options.profileDir ? profileFlags(options.profileDir, t, c, r) : [];
      // Scenario 6's 3-tool baseline is scenario 4's JSON row of the same implementation measured earlier
      // in the same round, when that row ran; only without it is a pair measured back to back.
      const base = c.pairTools ? sameRoundBase.get(`${r}:${c.label}`) : undefined;
      let result;
      if (!c.pairTools) result = await measure(c, pin, smoke, flags);
      else if (base?.ok) {
        const many = await measure(c, pin, smoke, flags);
        result = many.ok ? { ...many, baseCallsPerSec: base.callsPerSec } : many;
      } else result = await measurePair(c, pin, smoke, flags, r);
      if (t.id === "s4-json") sameRoundBase.set(`${r}:${c.label}`, result);
      c.samples.push(result);
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      log(
        `[round ${r + 1}/${rounds}] ${t.id} ${c.label}: ${result.ok ? "ok" : `FAILED ${result.error}`} (${secs} s)`,
      );
    }
  };
  const sameRoundBase = new Map();
  let done = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    const queue = [];
    for (const t of tables) for (const c of rotate(t.cases, r)) queue.push({ r, t, c });
    await Promise.all(Array.from({ length: parallel }, () => worker(queue)));
    done++;
    const elapsed = (performance.now() - started) / 1000;
    const roundSecs = (performance.now() - t0) / 1000;
    if (p.budgetSeconds && r + 1 < rounds && r >= 1 && elapsed + roundSecs > p.budgetSeconds) {
      notes.push(
        `stopped after ${done} of ${rounds} rounds: another round (~${roundSecs.toFixed(0)} s) would pass the ${p.budgetSeconds} s budget.`,
      );
      break;
    }
  }
  let sizes = [];
  const wantSizes = options.sizes !== false && (!options.only || options.only.includes(8));
  if (wantSizes) {
    log("sizing the installed runtime closures (cached per version)…");
    sizes = await measureSizes(
      impls.filter((i) => IMPLS.includes(i)),
      log,
    );
  }
  const failures = [];
  for (const t of tables) {
    for (const c of t.cases) {
      for (const s of c.samples) {
        if (!s.ok && !c.expectFail) failures.push(`${t.id} ${c.label}: ${s.error}`);
      }
    }
  }
  for (const s of sizes) if (s.error) failures.push(`size ${s.impl}: ${s.error}`);
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    smoke,
    rounds: done,
    pin: parallel > 1 ? `${pin.note}; ${parallel} measurements at a time (smoke)` : pin.note,
    seconds: (performance.now() - started) / 1000,
    notes,
  };
  const report = buildReport({ tables, sizes, meta });
  return { tables, sizes, report, failures, meta };
}

/**
 * Every node process of one measurement writes a CPU profile into its own folder. Node 20 refuses
 * --cpu-prof in NODE_OPTIONS, so the flags go on each command line the harness builds.
 */
function profileFlags(root, t, c, r) {
  const dir = path.join(root, `${t.id}-${c.label.replace(/[^\w-]+/g, "_")}-r${r + 1}`);
  c.profileDirs = [...(c.profileDirs ?? []), dir];
  return ["--cpu-prof", `--cpu-prof-dir=${dir}`];
}

async function measure(c, pin, smoke, flags) {
  const deadlineMs = smoke ? 30_000 : 60_000;
  const argv = (spec) => [
    ...pin.client,
    process.execPath,
    ...flags,
    programPath(c.client ?? c.impl, "client"),
    JSON.stringify({ ...spec, deadlineMs }),
  ];
  const client = (spec) => runProgram(argv(spec), { timeoutMs: deadlineMs + 5_000 });
  try {
    if (c.kind === "import") return await importTime(c, pin, flags);
    if (c.kind === "bundle") return await bundleSize(c);
    if (c.kind === "scale-out") return await measureScaleOut(c, pin, flags, client);
    if (c.transport === "stdio") {
      // `telemetry` (scenario 11) goes to both programs; undefined elsewhere, and left out of the JSON.
      const spec = { transport: "stdio", tools: c.tools, telemetry: c.telemetry };
      const server = serverCommand(c.impl, spec, pin, flags);
      return await client({
        transport: "stdio",
        era: c.era,
        server,
        workload: c.workload,
        telemetry: c.telemetry,
      });
    }
    const server = await startHttpServer(
      c.impl,
      { transport: "http", era: c.era, reply: c.reply, tools: c.tools, telemetry: c.telemetry },
      pin,
      { nodeFlags: flags },
    );
    try {
      const result = await client({
        transport: "http",
        era: c.era,
        url: server.url,
        workload: c.workload,
        telemetry: c.telemetry,
      });
      if (!result.ok && server.stderr().trim()) result.serverStderr = server.stderr().slice(-600);
      return result;
    } finally {
      await server.close();
    }
  } catch (error) {
    return { ok: false, error: String(error?.message ?? error), harness: true };
  }
}

/** The row's server with `pairTools` tools and with its own count, back to back (order by round). */
async function measurePair(c, pin, smoke, flags, round) {
  const few = { ...c, tools: c.pairTools, workload: { ...c.workload, expectTools: c.pairTools } };
  const order = round % 2 === 0 ? [few, c] : [c, few];
  const [a, b] = [await measure(order[0], pin, smoke, flags), await measure(order[1], pin, smoke, flags)];
  const [base, many] = round % 2 === 0 ? [a, b] : [b, a];
  if (!base.ok) return { ...base, error: `with ${c.pairTools} tools: ${base.error}` };
  return many.ok ? { ...many, baseCallsPerSec: base.callsPerSec } : many;
}

async function importTime(c, pin, flags) {
  const specifiers = IMPORTS[c.impl][c.side];
  const code = `const t = performance.now(); for (const s of ${JSON.stringify(specifiers)}) await import(s);
process.stdout.write(JSON.stringify({ ok: true, ms: performance.now() - t }) + "\\n");`;
  const times = [];
  for (let i = 0; i < c.reps; i++) {
    const r = await runProgram(
      [...pin.client, process.execPath, ...flags, "--input-type=module", "-e", code],
      {
        timeoutMs: 30_000,
      },
    );
    if (!r.ok) return r;
    times.push(r.ms);
  }
  return { ok: true, ms: median(times) };
}
