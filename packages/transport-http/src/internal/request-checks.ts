import { classifyValue, type ParsedMessage } from "@mcpkit/jsonrpc";
import { Header, isLegacyVersion, MetaKey } from "@mcpkit/protocol";
import { type HandlerState, limitReached, type Rejection, reject } from "./handler-state.js";
import {
  accepts,
  errorReply,
  hostAllowed,
  isJsonContentType,
  isLoopbackHostname,
  type Reply,
  splitHost,
} from "./http-util.js";
import { type InboundRequest, TOO_LARGE } from "./inbound.js";

/** A JSON-RPC message that passed the shape check: what the era routes serve. */
export type ValidMessage = Exclude<ParsedMessage, { kind: "invalid" }>;

/** The era a POST belongs to. */
export type Era = "legacy" | "modern";

/**
 * Whether a browser page on `origin` may use this endpoint: it is in `allowed` (or `allowed` has `"*"`),
 * or it is a loopback origin on the port the request was sent to (a page of this server itself, by any
 * loopback name). A page on another loopback port is another site (any local program, a dev server, a
 * page a browser extension opened) and is refused like any foreign origin.
 */
export function originPasses(origin: string, allowed: readonly string[], host: string): boolean {
  if (allowed.includes("*") || allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (!isLoopbackHostname(url.hostname)) return false;
  const target = splitHost(host);
  // URL drops a scheme's default port; a Host header may still name it.
  const defaultPort = url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "";
  const port = target.port === defaultPort ? "" : target.port;
  return isLoopbackHostname(target.hostname) && url.port === port;
}

// DNS rebinding: a browser page on another origin can reach a loopback server; its Origin gives it away,
// and for a server bound to loopback a foreign Host does too (the conformance suite sends both).
/** The 403 for a foreign `Origin` or a disallowed `Host`, else undefined. */
export function checkOrigin(state: HandlerState, req: InboundRequest): Rejection | undefined {
  const origin = req.header("origin");
  if (origin !== null && !originPasses(origin, state.allowedOrigins, req.host())) {
    return reject(403, -32600, "Forbidden: origin not allowed");
  }
  const allowedHosts = state.allowedHosts;
  if (allowedHosts !== undefined) {
    const host = req.host();
    if (!hostAllowed(host, allowedHosts)) return reject(403, -32600, "Forbidden: host not allowed");
  }
  return undefined;
}

/** A POST's `Accept` (406) and `Content-Type` (415) checks, made before its body is read. */
export function checkPostHeaders(req: InboundRequest): Reply | undefined {
  const accept = req.header("accept");
  if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
    return errorReply(
      406,
      -32600,
      "Not Acceptable: Accept must allow application/json and text/event-stream",
    );
  }
  if (!isJsonContentType(req.header("content-type"))) {
    return errorReply(415, -32600, "Unsupported Media Type: Content-Type must be application/json");
  }
  return undefined;
}

/** A POST body as one JSON-RPC message, or the reply refusing it (413, 400 -32700, 400 for a batch or shape). */
export function parsePostBody(state: HandlerState, body: string | typeof TOO_LARGE): ValidMessage | Reply {
  if (body === TOO_LARGE) {
    const maxBodyBytes = state.maxBodyBytes;
    limitReached(state, "maxBodyBytes", maxBodyBytes, 413, "a POST body was refused with 413");
    return errorReply(413, -32600, `Request body exceeds ${maxBodyBytes} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return errorReply(400, -32700, "Parse error");
  }
  if (Array.isArray(value)) {
    // Batches existed only in 2025-03-26 and were removed in 2025-06-18.
    return errorReply(400, -32600, "Invalid Request: batches are not supported");
  }
  const parsed = classifyValue(value)[0]!;
  if (parsed.kind === "invalid") return errorReply(400, parsed.error.code, parsed.error.message, parsed.id);
  return parsed;
}

/** The era of a POST on this endpoint, from its headers and `_meta` (`message` is the parsed body). */
export function chooseEra(
  state: HandlerState,
  req: InboundRequest,
  message: Record<string, unknown>,
): Era | Rejection {
  if (!state.serveLegacy) return "modern";
  if (!state.serveModern) return "legacy";
  if (req.header(Header.SessionId) !== null) return "legacy";
  // Modern markers win even for `initialize`: a 2026-07-28 request for it must get 404 -32601.
  const header = req.header(Header.ProtocolVersion)?.trim();
  if (header !== undefined && header !== "" && !isLegacyVersion(header)) return "modern";
  const params = message.params as { _meta?: Record<string, unknown> } | undefined;
  if (params?._meta?.[MetaKey.ProtocolVersion] !== undefined) return "modern";
  // Otherwise legacy: `initialize` opens a session, anything else gets 400 (session required).
  return "legacy";
}
