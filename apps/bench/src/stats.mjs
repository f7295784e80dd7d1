// Small statistics helpers for the harness.

/** The median of a list of numbers (NaN for an empty list). */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Smallest and largest value. */
export function range(values) {
  return { min: Math.min(...values), max: Math.max(...values) };
}

/** Rotates a list left by `by` places (round r runs A B C, then B C A, …). */
export function rotate(list, by) {
  if (list.length === 0) return list;
  const k = ((by % list.length) + list.length) % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

/** A count for a table: rounded, with thousands separators; "–" when absent. */
export const formatCount = (x) => (x === undefined ? "–" : Math.round(x).toLocaleString("en-US"));

/** Server CPU per call of each case of a table (the `stats` its server reported), median over rounds. */
export function serverCpuByLabel(table) {
  const cpu = {};
  for (const c of table.cases) {
    const v = c.samples.map((s) => s.server?.cpuUsPerCall).filter((x) => typeof x === "number");
    cpu[c.label] = v.length ? median(v) : undefined;
  }
  return cpu;
}
