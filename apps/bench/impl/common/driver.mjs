// The measuring half of every client program. Each implementation supplies `connect(spec)`, which returns a
// session { echo(text), blob(bytes), list(), stats(), close(), era? }; this module runs the workload the harness
// asked for and prints ONE JSON line with the figures. Times come from performance.now() in this process.
import { memoryStats } from "./tools.mjs";

/** Runs the client program: reads the spec (argv[2]), runs it with `connect`, prints the result, exits. */
export async function runDriver(connect) {
  let spec;
  try {
    spec = JSON.parse(process.argv[2] ?? "");
  } catch {
    fail(new Error("client: missing or bad JSON spec argument"));
    return;
  }
  const guard = setTimeout(
    () => fail(new Error(`client: gave up after ${spec.deadlineMs} ms`)),
    spec.deadlineMs,
  );
  guard.unref();
  try {
    const result = await run(connect, spec);
    process.stdout.write(
      `${JSON.stringify({ ok: true, ...result, clientPeakRss: memoryStats().peakRss })}\n`,
    );
    process.exit(0);
  } catch (error) {
    fail(error);
  }
}

function fail(error) {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stdout.write(
    `${JSON.stringify({ ok: false, error: message, clientPeakRss: memoryStats().peakRss })}\n`,
  );
  process.exit(1);
}

async function run(connect, spec) {
  const w = spec.workload;
  if (w.kind === "cold") return cold(connect, spec, w);
  if (w.kind === "import") return {};
  const clients = [];
  try {
    for (let i = 0; i < (w.clients ?? 1); i++) clients.push(await connect(spec));
    const first = clients[0];
    let extra = {};
    let result;
    if (w.kind === "echo") {
      if (w.listReps) extra = await listTimes(first, w.listReps, w.expectTools);
      result = await echoLoad(clients, w);
    } else if (w.kind === "blob") {
      result = await blobLoad(first, w);
    } else {
      throw new Error(`client: unknown workload ${w.kind}`);
    }
    const server = await first.stats();
    return { ...result, ...extra, server, era: first.era };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}

async function listTimes(session, reps, expectTools) {
  const times = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    const n = await session.list();
    times.push(performance.now() - t0);
    if (expectTools !== undefined && n !== expectTools) {
      throw new Error(`client: tools/list returned ${n} tools, expected ${expectTools}`);
    }
  }
  return { listMs: median(times) };
}

// Keeps clients × inflight calls outstanding; counts completions inside the measuring window, which opens
// after the warm-up and closes at durationMs or maxCalls, whichever comes first.
async function echoLoad(clients, w) {
  const inflight = w.inflight ?? 1;
  const text = "hello, bench";
  const latencies = [];
  let measuring = w.warmupMs <= 0;
  let stop = false;
  let start = performance.now();
  let end = start;
  let done = 0;
  // Warm-up ends once the JIT has settled: after at least minWarmupMs, three 200 ms windows in a row within
  // 5 % of each other's throughput; at warmupMs at the latest. Every implementation gets the same rule, so a
  // large code base is not measured while it is still being compiled.
  const warmEnd = start + w.warmupMs;
  const minWarmEnd = start + Math.min(w.minWarmupMs ?? 300, w.warmupMs);
  let windowStart = start;
  let windowCalls = 0;
  const rates = [];
  const settled = (t1) => {
    windowCalls++;
    if (t1 - windowStart < 200) return false;
    rates.push(windowCalls / (t1 - windowStart));
    windowStart = t1;
    windowCalls = 0;
    if (t1 < minWarmEnd || rates.length < 3) return false;
    const [a, b, c] = rates.slice(-3);
    return Math.max(a, b, c) / Math.min(a, b, c) < 1.05;
  };
  const loop = async (session) => {
    while (!stop) {
      const t0 = performance.now();
      const got = await session.echo(text);
      const t1 = performance.now();
      if (got !== text) throw new Error(`client: echo returned ${JSON.stringify(got).slice(0, 80)}`);
      if (!measuring) {
        if (t1 < warmEnd && !settled(t1)) continue;
        measuring = true;
        start = t1;
        warmedMs = t1 - begin;
        continue;
      }
      if (stop) break;
      done++;
      if (t0 >= start) latencies.push(t1 - t0);
      if (t1 - start >= w.durationMs || done >= w.maxCalls) {
        stop = true;
        end = t1;
      }
    }
  };
  const begin = start;
  let warmedMs = 0;
  const loops = [];
  for (const c of clients) for (let i = 0; i < inflight; i++) loops.push(loop(c));
  await Promise.all(loops);
  const seconds = (end - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    calls: done,
    seconds,
    callsPerSec: seconds > 0 ? done / seconds : 0,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    warmedMs,
  };
}

async function blobLoad(session, w) {
  const times = [];
  for (let i = 0; i < w.reps; i++) {
    const t0 = performance.now();
    const n = await session.blob(w.bytes);
    times.push(performance.now() - t0);
    if (n !== w.bytes) throw new Error(`client: blob returned ${n} characters, expected ${w.bytes}`);
  }
  // The first call warms the code paths; with more than one rep it is left out of the figure.
  const counted = times.length > 1 ? times.slice(1) : times;
  return { ms: median(counted), msMin: Math.min(...counted) };
}

async function cold(connect, spec, w) {
  const times = [];
  let server;
  let era;
  for (let i = 0; i < w.reps; i++) {
    const t0 = performance.now();
    const session = await connect(spec);
    try {
      const n = await session.list();
      times.push(performance.now() - t0);
      if (n < 1) throw new Error("client: tools/list returned no tools");
      if (i === w.reps - 1) {
        server = await session.stats();
        era = session.era;
      }
    } finally {
      await session.close();
    }
  }
  // The first spawn also pays for this process's own lazy compilation; it is kept out when there are more.
  const counted = times.length > 1 ? times.slice(1) : times;
  return { ms: median(counted), msMin: Math.min(...counted), server, era };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return quantile(s, 0.5);
}

function quantile(sorted, q) {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** The text of the first content block of a tools/call result, for the adapters. */
export function firstText(result) {
  const block = result?.content?.[0];
  if (block?.type !== "text")
    throw new Error(`client: unexpected tool result ${JSON.stringify(result).slice(0, 120)}`);
  if (result.isError) throw new Error(`client: tool error: ${block.text.slice(0, 200)}`);
  return block.text;
}
