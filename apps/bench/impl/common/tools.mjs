// The tool surface every implementation's server registers, and the helpers the servers share. Plain Node,
// no dependencies: the measured processes load nothing that the implementation itself does not need.
import { readFileSync } from "node:fs";

/** The three tools every server has: `echo` (returns its `text`), `blob` (`bytes` of text), `stats` (memory). */
export const BASE_TOOLS = ["echo", "blob", "stats"];

/** Filler tool names so that `count` tools are registered in all (echo, blob and stats included). */
export function fillerNames(count) {
  const names = [];
  for (let i = BASE_TOOLS.length; i < count; i++) names.push(`filler_${String(i).padStart(3, "0")}`);
  return names;
}

const blobs = new Map();
/** A text of `bytes` ASCII characters, built once per size so repeated calls measure the wire, not repeat(). */
export function blobText(bytes) {
  let text = blobs.get(bytes);
  if (text === undefined) {
    text = "x".repeat(bytes);
    blobs.set(bytes, text);
  }
  return text;
}

/** Peak and current resident set size of this process, in bytes (peak from /proc, else the current RSS). */
export function memoryStats() {
  const rss = process.memoryUsage.rss();
  let peak = rss;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) peak = Number(m[1]) * 1024;
  } catch {}
  return { peakRss: peak, rss };
}

/** The text `stats` returns: this server's memory as JSON. */
export function statsText() {
  return JSON.stringify(memoryStats());
}

/** The server program's options, passed as one JSON argument. */
export function readServerSpec() {
  const raw = process.argv[2];
  if (!raw) throw new Error("server: missing the JSON spec argument");
  // Exit normally on SIGTERM so that `--cpu-prof` (which writes at exit) works for servers too.
  process.on("SIGTERM", () => process.exit(0));
  return JSON.parse(raw);
}

/** Tells the harness which port an HTTP server listens on (first stdout line). */
export function announcePort(port) {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}
