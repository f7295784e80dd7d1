import { cut, PART_TEXT_LIMIT, RESULT_BYTES_LIMIT } from "./limits.js";

/** A result as the page receives it: the value, or a cut copy of it with a note of its real size. */
export interface ShapedResult {
  value: unknown;
  /** The size of the whole result as JSON, in bytes. */
  bytes: number;
  /** Set when the value was cut to fit the page. */
  truncated?: string;
}

/**
 * Fits a server's result for the page: under {@link RESULT_BYTES_LIMIT} it goes whole; above, each text
 * part and string is cut and base64 data dropped, so a 20 MiB result neither freezes the tab nor the server.
 */
export function shapeResult(value: unknown): ShapedResult {
  const json = JSON.stringify(value) ?? "null";
  const bytes = Buffer.byteLength(json);
  if (bytes <= RESULT_BYTES_LIMIT) return { value, bytes };
  return {
    value: shrink(value, 0),
    bytes,
    truncated: `the result is ${(bytes / 1024 / 1024).toFixed(1)} MiB: its long strings are cut to ${PART_TEXT_LIMIT / 1024} KiB for display`,
  };
}

function shrink(value: unknown, depth: number): unknown {
  if (typeof value === "string") return cut(value, PART_TEXT_LIMIT);
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = value.slice(0, 200).map((item) => shrink(item, depth + 1));
    if (value.length > 200) items.push(`… ${value.length - 200} more items`);
    return items;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      key === "data" && typeof item === "string" && item.length > PART_TEXT_LIMIT
        ? "[data cut]"
        : shrink(item, depth + 1);
  }
  return out;
}
