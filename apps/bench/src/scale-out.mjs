// Scenario 10, scale-out (issue 16): 50 HTTP clients against mcpkit with the in-memory stores and with the
// Redis stores (redisStore() of @mcpkit/redis, one instance, both eras), then 1 vs 2 Redis-backed instances
// behind the round-robin proxy of apps/cluster-demo (dist/proxy.js, connections to the instances kept
// alive). Needs a reachable Redis (REDIS_URL, default redis://127.0.0.1:6379); without one the table is left
// out with a note.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "./procs.mjs";
import { formatCount, serverCpuByLabel } from "./stats.mjs";

export const SCALE_OUT_SCENARIO = 10;
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
export const PROXY_ENTRY = fileURLToPath(new URL("../../cluster-demo/dist/proxy.js", import.meta.url));

/**
 * The scenario's table. `workload` is scenario 5's (50 clients, sequential calls each, JSON replies): a
 * legacy request then costs one Redis round trip (its session record read, TTL restarted) and a modern one
 * none; SSE replies would add the event store's writes.
 */
export function scaleOutTable(workload) {
  const cases = [];
  const row = (era, store, instances, proxy) => {
    const where = proxy ? `, ${instances} instance${instances > 1 ? "s" : ""} + proxy` : "";
    cases.push({
      impl: "mcpkit",
      label: `${era}, ${store === "redis" ? "Redis" : "in-memory"}${where}`,
      kind: "scale-out",
      transport: "http",
      era,
      reply: "json",
      tools: 3,
      store,
      instances,
      proxy,
      workload,
    });
  };
  for (const era of ["modern", "legacy"]) {
    row(era, "memory", 1, false);
    row(era, "redis", 1, false);
  }
  for (const era of ["modern", "legacy"]) {
    row(era, "redis", 1, true);
    row(era, "redis", 2, true);
  }
  return {
    id: "s10",
    scenario: SCALE_OUT_SCENARIO,
    title:
      "10. scale-out: 50 HTTP clients (JSON replies), mcpkit with in-memory vs Redis stores, then 1 vs 2 Redis-backed instances behind the round-robin proxy",
    metric: "rate",
    scaleOut: true,
    cases,
  };
}

/** Why the Redis at REDIS_URL cannot be used (a TCP connect within 1 s), or undefined when it can. */
export async function redisUnreachable() {
  const url = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port || 6379), url.hostname);
    const done = (why) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(1000, () => done(`no answer from ${REDIS_URL} within 1 s`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error) => done(`${REDIS_URL}: ${error.message}`));
  });
}

/**
 * Measures one row: starts its server instance(s) (with the Redis stores under a key prefix of their own)
 * and, for proxy rows, the proxy in front of them; runs `client` against the front; stops everything.
 * Single-instance rows pin the server as every other row does; proxy rows leave the instances and the proxy
 * unpinned, so they share both cores with the client and Redis (this machine has two).
 */
export async function measureScaleOut(c, pin, flags, client) {
  const spec = { transport: "http", era: c.era, reply: c.reply, tools: c.tools };
  if (c.store === "redis") {
    spec.store = "redis";
    spec.redisUrl = REDIS_URL;
    spec.prefix = `mcpkit-bench:${randomBytes(4).toString("hex")}:`;
  }
  const serverPin = c.proxy ? { ...pin, server: [] } : pin;
  const started = [];
  try {
    for (let i = 0; i < c.instances; i++) {
      started.push(await startHttpServer("mcpkit", spec, serverPin, { nodeFlags: flags }));
    }
    let url = started[0].url;
    if (c.proxy) {
      if (!existsSync(PROXY_ENTRY)) throw new Error(`${PROXY_ENTRY} is missing (build @mcpkit/cluster-demo)`);
      const origins = started.map((s) => new URL(s.url).origin);
      const proxy = await startHttpServer("proxy", {}, serverPin, {
        command: [process.execPath, PROXY_ENTRY, "--keep-alive", ...origins],
      });
      started.push(proxy);
      url = proxy.url;
    }
    const result = await client({ transport: "http", era: c.era, url, workload: c.workload });
    if (!result.ok) result.serverStderr = started.map((s) => s.stderr().slice(-300)).join(" | ");
    return result;
  } finally {
    await Promise.all(started.map((s) => s.close()));
  }
}

const n0 = formatCount;
const n1 = (x) => (x === undefined ? "–" : x < 10 ? x.toFixed(2) : x.toFixed(1));
const pct = (x) => (x === undefined || !Number.isFinite(x) ? "–" : `${Math.round(x)}%`);

/** The row each row is compared with: the in-memory row for a Redis one, the 1-instance row for 2. */
function referenceOf(label) {
  if (label.endsWith(", Redis")) return label.replace(", Redis", ", in-memory");
  if (label.includes("2 instances + proxy")) return label.replace("2 instances", "1 instance");
  return undefined;
}

/** The table as Markdown, with the cost of a legacy request's Redis round trip worked out below it. */
export function scaleOutMarkdown(t, rows) {
  const lines = [`### ${t.title}`, ""];
  const head = [
    "row",
    "calls/s median (min–max)",
    "p50 ms",
    "p99 ms",
    "vs",
    "server CPU µs/call",
    "Redis round trips per call",
  ];
  const cpu = serverCpuByLabel(t);
  lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
  for (const [label, r] of Object.entries(rows)) {
    const refLabel = referenceOf(label);
    const ref = refLabel ? rows[refLabel] : undefined;
    const ratio = r.ok && ref?.ok ? pct((r.value / ref.value) * 100) : "–";
    const value = r.ok
      ? `${n0(r.value)} (${n0(r.min)}–${n0(r.max)})`
      : `fails (${String(r.error).slice(0, 70)})`;
    const trips = label.includes("in-memory") ? "–" : label.startsWith("modern") ? "0" : "1";
    lines.push(
      `| ${label} | ${value} | ${n1(r.p50)} | ${n1(r.p99)} | ${refLabel ? `${ratio} of ${refLabel}` : "–"} | ${n0(cpu[label])} | ${trips} |`,
    );
  }
  lines.push("");
  const modernMem = rows["modern, in-memory"];
  const modernRedis = rows["modern, Redis"];
  if (modernMem?.ok && modernRedis?.ok) {
    const share = (modernRedis.value / modernMem.value) * 100;
    lines.push(
      `Target of issue 16: modern tools/call with the Redis stores ≥ 90% of in-memory: ${pct(share)} (${share >= 90 ? "met" : "**not met**"}).`,
      "",
    );
  }
  const cpuMem = cpu["legacy, in-memory"];
  const cpuRedis = cpu["legacy, Redis"];
  if (cpuMem !== undefined && cpuRedis !== undefined) {
    lines.push(
      `Server CPU per call: a legacy call's Redis round trip (and the shared-session work around it) adds ${n0(cpuRedis - cpuMem)} µs (${n0(cpuRedis)} vs ${n0(cpuMem)} µs in-memory); modern: ${n0(cpu["modern, Redis"])} vs ${n0(cpu["modern, in-memory"])} µs (no Redis round trip). CPU time is what an instance spends per call whatever else runs on the machine; one core carries about 10⁶ / (µs per call) calls/s.`,
      "",
    );
  }
  const mem = rows["legacy, in-memory"];
  const redis = rows["legacy, Redis"];
  if (mem?.ok && redis?.ok) {
    // Both rows saturate the one server core; the difference of the inverse rates is server time per call.
    const us = (1 / redis.value - 1 / mem.value) * 1e6;
    lines.push(
      us > 0
        ? `A legacy call's one Redis round trip (MULTI PEXPIRE HGETALL EXEC: the session record read, its idle TTL restarted) costs ${n1(us)} µs of server time per call here (1/${n0(redis.value)} − 1/${n0(mem.value)} s); a modern call makes none.`
        : `The legacy rows do not resolve the cost of the Redis round trip in this run (Redis row faster: noise; rerun on a quiet machine).`,
      "",
    );
  }
  return lines.join("\n");
}
