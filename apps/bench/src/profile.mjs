// Reads V8 CPU profiles (`node --cpu-prof`) and lists where the time went: self time per function and per
// source line, mapped through source maps back to the TypeScript sources of our packages.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const maps = new Map();

function sourceMapFor(file) {
  if (maps.has(file)) return maps.get(file);
  let map = null;
  try {
    const mapFile = `${file}.map`;
    if (existsSync(mapFile)) {
      const payload = JSON.parse(readFileSync(mapFile, "utf8"));
      map = { map: new SourceMap(payload), dir: path.dirname(mapFile) };
    }
  } catch {}
  maps.set(file, map);
  return map;
}

/** `file:line` for a 1-based line and 0-based column of generated code, through its source map if any. */
function locate(url, line, column, repo) {
  if (!url) return "(native)";
  if (url.startsWith("node:")) return `${url}:${line}`;
  let file = url.startsWith("file://") ? fileURLToPath(url) : url;
  const sm = sourceMapFor(file);
  if (sm) {
    const entry = sm.map.findEntry(line - 1, Math.max(0, column));
    if (entry?.originalSource) {
      const src = entry.originalSource.startsWith("file://")
        ? fileURLToPath(entry.originalSource)
        : path.resolve(sm.dir, entry.originalSource);
      file = src;
      line = entry.originalLine + 1;
    }
  }
  const rel = path.relative(repo, file);
  const shown = rel.startsWith("..") ? file : rel;
  return `${shown.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, "")}:${line}`;
}

/**
 * Summary of one .cpuprofile: total sampled ms, the top functions by self time and the top lines,
 * as [{ where, fn, ms, share }].
 */
export function summarizeProfile(file, { top = 15, repo }) {
  const prof = JSON.parse(readFileSync(file, "utf8"));
  const dt = new Map();
  // Time between samples, charged to the sample's node.
  for (let i = 0; i < prof.samples.length; i++) {
    const d = (prof.timeDeltas[i + 1] ?? prof.timeDeltas[i] ?? 0) / 1000;
    dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + d);
  }
  let total = 0;
  let idle = 0;
  const fns = new Map();
  const lines = new Map();
  const files = new Map();
  for (const node of prof.nodes) {
    const ms = dt.get(node.id) ?? 0;
    if (!ms) continue;
    const cf = node.callFrame;
    if (cf.functionName === "(idle)" || cf.functionName === "(program)") {
      idle += cf.functionName === "(idle)" ? ms : 0;
      if (cf.functionName === "(idle)") continue;
    }
    total += ms;
    const fnWhere = cf.url ? locate(cf.url, cf.lineNumber + 1, cf.columnNumber, repo) : "(native)";
    const key = `${cf.functionName || "(anonymous)"} ${fnWhere}`;
    fns.set(key, (fns.get(key) ?? 0) + ms);
    const fileKey = fnWhere.replace(/:\d+$/, "");
    files.set(fileKey, (files.get(fileKey) ?? 0) + ms);
    const ticks = node.positionTicks ?? [];
    const tickSum = ticks.reduce((a, t) => a + t.ticks, 0);
    for (const t of ticks) {
      if (!cf.url) continue;
      const where = locate(cf.url, t.line, 0, repo);
      lines.set(where, (lines.get(where) ?? 0) + (ms * t.ticks) / tickSum);
    }
  }
  const rank = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([where, ms]) => ({ where, ms, share: total ? ms / total : 0 }));
  return { totalMs: total, idleMs: idle, functions: rank(fns), lines: rank(lines), files: rank(files) };
}

/** Markdown for every profile in `dir` (one per process). */
export function profilesMarkdown(dir, title, repo) {
  if (!existsSync(dir)) return "";
  const out = [`#### profile: ${title}`, ""];
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith(".cpuprofile"))
    .sort()) {
    const s = summarizeProfile(path.join(dir, f), { repo });
    out.push(`${f}: ${s.totalMs.toFixed(0)} ms busy, ${s.idleMs.toFixed(0)} ms idle`, "");
    out.push("| self ms | share | function (source) |", "|---|---|---|");
    for (const r of s.functions)
      out.push(`| ${r.ms.toFixed(0)} | ${(r.share * 100).toFixed(1)}% | ${r.where} |`);
    out.push("", "| self ms | share | file |", "|---|---|---|");
    for (const r of s.files.slice(0, 10))
      out.push(`| ${r.ms.toFixed(0)} | ${(r.share * 100).toFixed(1)}% | ${r.where} |`);
    out.push("", "| self ms | share | hottest lines |", "|---|---|---|");
    for (const r of s.lines.slice(0, 10))
      out.push(`| ${r.ms.toFixed(0)} | ${(r.share * 100).toFixed(1)}% | ${r.where} |`);
    out.push("");
  }
  return out.join("\n");
}
