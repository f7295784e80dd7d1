// The shape of one wire entry, shared by the server (src/wire-log.ts) and the page (app/src/types.ts).

/** One line of the wire view: a JSON-RPC message either way, or one HTTP exchange under them. */
export interface WireEntry {
  seq: number;
  /** Milliseconds since the epoch. */
  time: number;
  /** `out` client → server, `in` server → client, `http` one HTTP request and its response status. */
  direction: "out" | "in" | "http";
  /** The era in force when it passed (`negotiating` before the handshake settled). */
  era: string;
  /** JSON-RPC: the method (requests, notifications) or `result`/`error` (responses). */
  method?: string;
  id?: string | number;
  /** The message as JSON, cut at 16 KiB (`WIRE_TEXT_LIMIT`). */
  text?: string;
  /** Its size as JSON, in bytes. */
  bytes?: number;
  /** HTTP: the request. */
  http?: {
    method: string;
    url: string;
    status?: number;
    error?: string;
    /** The `Mcp-*` and `MCP-*` headers both ways, and the content types. */
    requestHeaders: Record<string, string>;
    responseHeaders: Record<string, string>;
    ms?: number;
  };
}
