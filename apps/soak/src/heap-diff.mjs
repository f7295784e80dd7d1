// `node apps/soak/src/heap-diff.mjs early.heapsnapshot late.heapsnapshot [--top N]`: what grew between two
// V8 heap snapshots (e.g. those `pnpm soak --snapshots DIR` takes after warm-up and at the end), by
// constructor: objects and self bytes in each, and the difference, largest growth first. Enough to tell
// a leak's kind (a Map that only grows, closures of one function, strings of one shape) without DevTools.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

/** Count and self size of the live objects of a snapshot, keyed `type name` (constructor or kind). */
export function summarize(file) {
  const snapshot = JSON.parse(readFileSync(file, "utf8"));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const { nodes, strings } = snapshot;
  const byKey = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    // Strings and code are grouped by kind; their "name" is their content.
    const name =
      type === "object" || type === "closure" || type === "native"
        ? strings[nodes[i + nameAt]].slice(0, 80)
        : "";
    const key = `${type} ${name}`.trim();
    const entry = byKey.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += nodes[i + sizeAt];
    byKey.set(key, entry);
  }
  return byKey;
}

/** Rows of what grew from `before` to `after`, largest self-size growth first. */
export function diff(before, after) {
  const rows = [];
  for (const [key, b] of after) {
    const a = before.get(key) ?? { count: 0, size: 0 };
    rows.push({ key, count: b.count - a.count, size: b.size - a.size, countAfter: b.count });
  }
  return rows.sort((x, y) => y.size - x.size);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: "string", default: "30" } },
  });
  const [early, late] = positionals;
  const rows = diff(summarize(early), summarize(late));
  console.log("| constructor | objects added | objects after | self KiB added |");
  console.log("|---|---|---|---|");
  for (const r of rows.slice(0, Number(values.top))) {
    console.log(
      `| ${r.key.replace(/\|/g, "\\|")} | ${r.count} | ${r.countAfter} | ${(r.size / 1024).toFixed(1)} |`,
    );
  }
}
