import { cut, WIRE_ENTRIES_LIMIT, WIRE_TEXT_LIMIT } from "./limits.js";
import type { WireEntry } from "./wire-entry.js";

/** The wire entries of one connection, newest last, bounded. */
export interface WireLog {
  readonly entries: readonly WireEntry[];
  /** Records a JSON-RPC message; returns the entry. */
  message(direction: "out" | "in", message: unknown, era: string): WireEntry;
  /** Records an HTTP exchange; returns the entry. */
  http(http: NonNullable<WireEntry["http"]>, era: string): WireEntry;
}

/** Creates a {@link WireLog}. */
export function createWireLog(): WireLog {
  const entries: WireEntry[] = [];
  let seq = 0;
  const push = (entry: WireEntry) => {
    entries.push(entry);
    if (entries.length > WIRE_ENTRIES_LIMIT) entries.splice(0, entries.length - WIRE_ENTRIES_LIMIT);
    return entry;
  };
  return {
    entries,
    message(direction, message, era) {
      const json = JSON.stringify(message) ?? "";
      const m = (typeof message === "object" && message !== null ? message : {}) as Record<string, unknown>;
      const method =
        typeof m.method === "string"
          ? m.method
          : "error" in m
            ? "error"
            : "result" in m
              ? "result"
              : undefined;
      const entry: WireEntry = {
        seq: ++seq,
        time: Date.now(),
        direction,
        era,
        text: cut(json, WIRE_TEXT_LIMIT),
        bytes: Buffer.byteLength(json),
      };
      if (method !== undefined) entry.method = method;
      if (typeof m.id === "string" || typeof m.id === "number") entry.id = m.id;
      return push(entry);
    },
    http(http, era) {
      return push({ seq: ++seq, time: Date.now(), direction: "http", era, method: http.method, http });
    },
  };
}

/** The headers of `headers` worth showing on the wire: `Mcp-*`, content type, `WWW-Authenticate`. */
export function wireHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (
      lower.startsWith("mcp-") ||
      lower === "content-type" ||
      lower === "www-authenticate" ||
      lower === "accept"
    )
      out[lower] = value;
  });
  return out;
}
