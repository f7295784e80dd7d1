import type { RequestContext } from "@mcpkit/jsonrpc";
import {
  type ClientCapabilities,
  type Implementation,
  isLoggingLevel,
  isModernVersion,
  McpError,
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  type RequestMeta,
} from "@mcpkit/protocol";
import type { Conn, Session } from "./connection.js";
import type { CallInfo } from "./internal/context.js";
import { initialize } from "./lifecycle.js";
import { declares, METHOD_TABLE, type MethodRoute } from "./method-table.js";
import type { ServerCore } from "./server-core.js";

type Params = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const BAD_REQUEST = { httpStatus: 400 };

/**
 * Answers one inbound request of `conn`: picks its era (a modern `_meta` protocol version, else the
 * legacy session, else only `initialize` and `ping` exist), builds the call's {@link CallInfo} and runs
 * the method table's row for it. The result is synchronous where the handler is (lists, discover, ping).
 * @throws McpError -32602 (HTTP 400) for params or `_meta` that are not objects, a modern request without
 * client capabilities, or a request that is neither modern nor in a session; the row's own errors.
 */
export function dispatch(
  core: ServerCore,
  conn: Conn,
  params: unknown,
  rctx: RequestContext,
): Params | Promise<Params> {
  const method = rctx.method;
  // MCP params are always an object (JSON-RPC would allow an array); so is `_meta` where present.
  if (params !== undefined && !isObject(params)) {
    throw McpError.invalidParams(`Invalid params: ${method} takes an object as params`, BAD_REQUEST);
  }
  const p: Params = params === undefined ? {} : params;
  const rawMeta = p._meta;
  if (rawMeta !== undefined && !isObject(rawMeta)) {
    throw McpError.invalidParams("Invalid params: params._meta must be an object", BAD_REQUEST);
  }
  const meta: RequestMeta = (rawMeta ?? {}) as RequestMeta;
  const version = meta[MetaKey.ProtocolVersion];
  if (method === "initialize" && !isModernVersion(version)) return initialize(core, conn, p);
  if (version !== undefined && (conn.session === undefined || isModernVersion(version))) {
    conn.era ??= "modern";
    return serveModern(core, conn, method, p, meta, rctx);
  }
  if (conn.session) return serveLegacy(core, conn, conn.session, method, p, meta, rctx);
  if (method === "ping") return {};
  throw McpError.invalidParams(
    `Missing _meta["${MetaKey.ProtocolVersion}"]: send a 2026-07-28 request with _meta, or initialize first`,
    BAD_REQUEST,
  );
}

/** A modern request: its `_meta` says who asks and at which version; every result gets a `resultType`. */
function serveModern(
  core: ServerCore,
  conn: Conn,
  method: string,
  p: Params,
  meta: RequestMeta,
  rctx: RequestContext,
): Params | Promise<Params> {
  const version = meta[MetaKey.ProtocolVersion];
  if (typeof version !== "string" || !isModernVersion(version)) {
    throw McpError.unsupportedProtocolVersion(MODERN_PROTOCOL_VERSIONS, String(version));
  }
  const clientCapabilities = meta[MetaKey.ClientCapabilities];
  if (!isObject(clientCapabilities)) {
    throw McpError.invalidParams(`Missing _meta["${MetaKey.ClientCapabilities}"]`, BAD_REQUEST);
  }
  const logLevel = meta[MetaKey.LogLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    throw McpError.invalidParams(`Invalid _meta["${MetaKey.LogLevel}"]: ${JSON.stringify(logLevel)}`);
  }
  const route = METHOD_TABLE.get(method);
  if (route === undefined || !route.modern) throw McpError.methodNotFound(method);
  const clientInfo = meta[MetaKey.ClientInfo];
  const call: CallInfo = {
    era: "modern",
    protocolVersion: version,
    method,
    requestId: rctx.id,
    rctx,
    clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    clientCapabilities: clientCapabilities as ClientCapabilities,
    meta,
    logThreshold: logLevel,
    requestTimeout: undefined,
  };
  const result = runRow(route, core, call, p, conn);
  // A shared function, not an async wrapper: a synchronous row stays synchronous, an asynchronous one
  // costs one turn and no closure.
  return result instanceof Promise ? result.then(completeResult) : completeResult(result);
}

/** A request in a legacy session: who asks and at which version is the session's. */
function serveLegacy(
  core: ServerCore,
  conn: Conn,
  session: Session,
  method: string,
  p: Params,
  meta: RequestMeta,
  rctx: RequestContext,
): Params | Promise<Params> {
  const route = METHOD_TABLE.get(method);
  if (route === undefined || !route.legacy) throw McpError.methodNotFound(method);
  const call: CallInfo = {
    era: "legacy",
    protocolVersion: session.protocolVersion,
    method,
    requestId: rctx.id,
    rctx,
    clientInfo: session.clientInfo,
    clientCapabilities: session.clientCapabilities,
    meta,
    logThreshold: session.logLevel ?? "all",
    requestTimeout: core.options.requestTimeout,
  };
  return runRow(route, core, call, p, conn);
}

/** Runs a table row: the server capability it needs (-32601 without), its params check, its handler. */
function runRow(
  route: MethodRoute,
  core: ServerCore,
  call: CallInfo,
  p: Params,
  conn: Conn,
): Params | Promise<Params> {
  if (route.requires !== undefined && !declares(core, route.requires)) {
    throw McpError.methodNotFound(call.method);
  }
  route.paramsCheck?.(p, call);
  return route.handler(core, call, p, conn);
}

/** Every 2026-07-28 result states its type; a handler that said nothing answered completely. */
function completeResult(result: Params): Params {
  if (result.resultType === undefined) result.resultType = "complete";
  return result;
}
