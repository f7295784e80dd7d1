// What every soak server shares: its settings (one JSON argument), the memory and handle figures it
// reports (after a forced GC), and the scan for what must never reach the wire.
import { readFileSync } from "node:fs";

/** The server program's settings: `{ transport: "http" | "stdio", idleMs }`. */
export function readSettings() {
  process.on("SIGTERM", () => process.exit(0));
  return JSON.parse(process.argv[2] ?? "{}");
}

/** Open handles by kind (sockets, timers, child processes...), as node reports them. */
export function handleCounts() {
  const counts = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** RSS and heap after a forced GC (the server runs with --expose-gc), and open handles. */
export function stats(sessions) {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  let peak = m.rss;
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm) peak = Number(hwm[1]) * 1024;
  } catch {}
  return {
    rss: m.rss,
    heap: m.heapUsed,
    external: m.external,
    peakRss: peak,
    handles: handleCounts(),
    sessions,
  };
}

/** Tells the harness the port (first stdout line). */
export function announce(port) {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

/**
 * Milliseconds to wait, ending early (with the signal's reason) when `signal` aborts. Its abort listener
 * is left on the signal when the wait ends normally, on purpose: that is what most handlers written in
 * the wild do, and a server must not keep a finished request alive for it (it did: the heap slope of the
 * first soaks, Node keeping every `AbortSignal.any` with a listener).
 */
export function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
