import type { JsonRpcErrorObject, JsonRpcId } from "@mcpkit/jsonrpc";
import type { SseConnection } from "./sse-connection.js";

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * A reply the handler built itself: a status, headers and a body that is in memory (a JSON text), an
 * SSE connection, or nothing. The Web entry point turns it into a `Response`; the node adapter writes it
 * straight to the socket without building one (a measurable cost per request).
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string | SseConnection | null,
  ) {}

  /** The Web-standard `Response` of this reply. */
  toResponse(): Response {
    const body = this.body;
    const init = { status: this.status, headers: this.headers };
    if (body === null) return new Response(null, init);
    return new Response(typeof body === "string" ? body : body.stream, init);
  }
}

const JSON_HEADERS: Record<string, string> = { "content-type": "application/json" };
const NO_HEADERS: Record<string, string> = {};

/** A JSON reply. */
export function jsonReply(status: number, text: string, headers?: Record<string, string>): Reply {
  // Object.assign, not `{ ...a, ...b }`: merging two spreads is a slow path on Node 20 (≈ 1 µs).
  return new Reply(status, headers ? Object.assign({}, JSON_HEADERS, headers) : JSON_HEADERS, text);
}

/** A reply without a body (202, 204, 200 for DELETE). */
export function emptyReply(status: number): Reply {
  return new Reply(status, NO_HEADERS, null);
}

/** A JSON-RPC error as an HTTP reply; `id` is left out when it could not be read. */
export function errorReply(
  status: number,
  code: number,
  message: string,
  id?: JsonRpcId | null,
  data?: unknown,
  headers?: Record<string, string>,
): Reply {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  const body = id === undefined || id === null ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
  return jsonReply(status, JSON.stringify(body), headers);
}

// Clients send the same Accept header on every request: its answers are remembered (bounded).
const acceptMemo = new Map<string, Map<string, boolean>>();

/** Whether an `Accept` header allows a media type (wildcards included; q=0 excludes). */
export function accepts(accept: string | null, type: string): boolean {
  if (accept === null) return false;
  let memo = acceptMemo.get(accept);
  const known = memo?.get(type);
  if (known !== undefined) return known;
  const answer = parseAccepts(accept, type);
  if (memo === undefined) {
    if (acceptMemo.size >= 64) acceptMemo.clear();
    memo = new Map();
    acceptMemo.set(accept, memo);
  }
  memo.set(type, answer);
  return answer;
}

function parseAccepts(accept: string, type: string): boolean {
  const [major] = type.split("/");
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const r = range.trim();
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p))) continue;
    if (r === type || r === "*/*" || r === `${major}/*`) return true;
  }
  return false;
}

/** Whether a `Content-Type` header is JSON (`application/json`, any parameters). */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === "application/json") return true;
  const base = contentType.split(";")[0]!.trim().toLowerCase();
  return base === "application/json";
}

/** Loopback host names, as the DNS-rebinding checks accept them. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h === "127.0.0.1" || h === "[::1]" || h === "::1";
}

/** Splits a Host header into hostname and port (`[::1]:8080` → `[::1]`, `8080`). */
export function splitHost(host: string): { hostname: string; port: string } {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    if (end < 0) return { hostname: h, port: "" };
    const rest = h.slice(end + 1);
    return { hostname: h.slice(0, end + 1), port: rest.startsWith(":") ? rest.slice(1) : "" };
  }
  const colon = h.lastIndexOf(":");
  return colon < 0 ? { hostname: h, port: "" } : { hostname: h.slice(0, colon), port: h.slice(colon + 1) };
}

/**
 * Whether a Host header is allowed: an entry with a port must match exactly, one without a port
 * matches that host name on any port.
 */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const { hostname, port } = splitHost(host);
  for (const entry of allowed) {
    const e = splitHost(entry);
    if (e.hostname !== hostname) continue;
    if (e.port === "" || e.port === port) return true;
  }
  return false;
}

// The one randomId (128 CSPRNG bits as hex) is jsonrpc's.
export { randomId } from "@mcpkit/jsonrpc";

/** Lets a timer not keep a Node process alive; a no-op where timers are plain numbers. */
export function unrefTimer(timer: unknown): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
