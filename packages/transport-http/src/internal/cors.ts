// CORS for browser clients on another origin (`cors: true` on the handler). The origin itself was already
// checked against `allowedOrigins` (the DNS-rebinding guard): CORS only lets that page read the answers.
import { Reply } from "./http-util.js";
import type { InboundRequest } from "./inbound.js";

// What an MCP client sends beyond the CORS-safelisted headers, lower-case (`Mcp-Param-*` are matched by
// prefix: their names come from a tool's `x-mcp-header` annotations).
const ALLOWED_HEADERS = new Set([
  "content-type",
  "accept",
  "authorization",
  "last-event-id",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "mcp-session-id",
]);
const PARAM_PREFIX = "mcp-param-";

// Mcp-Session-Id must be readable by the page to continue a legacy session; WWW-Authenticate carries the
// resource metadata address of an OAuth challenge.
const EXPOSED = "Mcp-Session-Id, WWW-Authenticate";

/** The headers that let the page at `origin` read a response. */
function responseHeaders(origin: string): Record<string, string> {
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": EXPOSED,
    vary: "Origin",
  };
}

/**
 * The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) from `origin`: 204 allowing
 * the handler's methods and whichever requested headers an MCP client may send; a header outside that
 * list is simply not allowed, so the browser refuses the request itself.
 */
export function preflightReply(req: InboundRequest, origin: string): Reply {
  const requested = req.header("access-control-request-headers") ?? "";
  const allowed = requested
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => ALLOWED_HEADERS.has(name) || name.startsWith(PARAM_PREFIX));
  const headers = responseHeaders(origin);
  headers["access-control-allow-methods"] = "GET, POST, DELETE";
  if (allowed.length > 0) headers["access-control-allow-headers"] = allowed.join(", ");
  headers["access-control-max-age"] = "600";
  headers.vary = "Origin, Access-Control-Request-Headers";
  return new Reply(204, headers, null);
}

/** `reply` with the CORS response headers for `origin` added (a new object: replies share their headers). */
export function withCors(reply: Reply | Response, origin: string): Reply | Response {
  const cors = responseHeaders(origin);
  if (reply instanceof Reply)
    return new Reply(reply.status, Object.assign({}, reply.headers, cors), reply.body);
  // A Response from `authenticate` (a 401/403 challenge): its headers may be immutable, so rebuild it.
  const headers = new Headers(reply.headers);
  for (const [name, value] of Object.entries(cors)) headers.set(name, value);
  return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers });
}
