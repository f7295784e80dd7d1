import type { JsonRpcErrorObject, JsonRpcId } from "@mcpkit/jsonrpc";

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Raw body text of the JSON responses this package creates, so the node adapter can write it without
 * reading the Response's stream back (a measurable cost per request).
 */
export const rawBodies = new WeakMap<Response, string>();

/** A JSON response; the text is remembered for the node adapter's fast path. */
export function jsonResponse(status: number, text: string, headers?: Record<string, string>): Response {
  const response = new Response(text, {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
  rawBodies.set(response, text);
  return response;
}

/** A JSON-RPC error response as an HTTP response; `id` is left out when it could not be read. */
export function errorResponse(
  status: number,
  code: number,
  message: string,
  id?: JsonRpcId | null,
  data?: unknown,
  headers?: Record<string, string>,
): Response {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  const body = id === undefined || id === null ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
  return jsonResponse(status, JSON.stringify(body), headers);
}

/** Whether an `Accept` header allows a media type (wildcards included; q=0 excludes). */
export function accepts(accept: string | null, type: string): boolean {
  if (accept === null) return false;
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

/** Whether an Origin header is allowed: a loopback origin, or one listed (exact match, or `*`). */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes("*") || allowed.includes(origin)) return true;
  try {
    return isLoopbackHostname(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** 128 bits from the platform CSPRNG, as 32 lower-case hex digits (visible ASCII). */
export function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let out = "";
  for (const b of bytes) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
}

/** Lets a timer not keep a Node process alive; a no-op where timers are plain numbers. */
export function unrefTimer(timer: unknown): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
