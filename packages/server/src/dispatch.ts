import type { RequestContext } from "@mcpkit/jsonrpc";
import { isObject } from "@mcpkit/jsonrpc";
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

/** The params of a request as an object, and its `_meta` (empty when absent). */
interface Envelope {
  p: Params;
  meta: RequestMeta;
}

/**
 * MCP params are always an object (JSON-RPC would allow an array); so is `_meta` where present.
 * @throws McpError -32602 naming what is not an object.
 */
function envelopeOf(method: string, params: unknown): Envelope {
  if (params !== undefined && !isObject(params)) {
    throw McpError.invalidParams(`Invalid params: ${method} takes an object as params`);
  }
  const p: Params = params === undefined ? {} : params;
  const rawMeta = p._meta;
  if (rawMeta !== undefined && !isObject(rawMeta)) {
    throw McpError.invalidParams("Invalid params: params._meta must be an object");
  }
  return { p, meta: (rawMeta ?? {}) as RequestMeta };
}

/**
 * Answers one inbound request of `conn`: picks its era (a modern `_meta` protocol version, else the
 * legacy session, else only `initialize` and `ping` exist), builds the call's {@link CallInfo} and runs
 * the method table's row for it. The result is synchronous where the handler is (lists, discover, ping).
 * Which HTTP status an error gets is the HTTP handler's business (by its code); nothing here says.
 * @throws McpError -32602 for params or `_meta` that are not objects, a modern request without client
 * capabilities, or a request that is neither modern nor in a session; the row's own errors.
 */
export function dispatch(
  core: ServerCore,
  conn: Conn,
  params: unknown,
  rctx: RequestContext,
): Params | Promise<Params> {
  const method = rctx.method;
  const { p, meta } = envelopeOf(method, params);
  const version = meta[MetaKey.ProtocolVersion];
  if (method === "initialize" && !isModernVersion(version)) return initialize(core, conn, p);
  if (version !== undefined && (conn.session === undefined || isModernVersion(version))) {
    conn.era ??= "modern";
    return serveModern(core, method, p, meta, rctx);
  }
  if (conn.session) return serveLegacy(core, conn, conn.session, method, p, meta, rctx);
  if (method === "ping") return {};
  throw missingVersion();
}

/**
 * Answers one 2026-07-28 request that no connection carries (`Server.handle`): the same rows as
 * {@link dispatch}, without a session to fall back to.
 * @throws McpError -32602 for params or `_meta` that are not objects, or without a `_meta` protocol
 * version or client capabilities; -32022 for a version that is not a modern one; the row's own errors.
 */
export function dispatchModern(
  core: ServerCore,
  params: unknown,
  rctx: RequestContext,
): Params | Promise<Params> {
  const method = rctx.method;
  const { p, meta } = envelopeOf(method, params);
  if (meta[MetaKey.ProtocolVersion] === undefined) throw missingVersion();
  return serveModern(core, method, p, meta, rctx);
}

function missingVersion(): McpError {
  return McpError.invalidParams(
    `Missing _meta["${MetaKey.ProtocolVersion}"]: send a 2026-07-28 request with _meta, or initialize first`,
  );
}

/** A modern request: its `_meta` says who asks and at which version; every result gets a `resultType`. */
function serveModern(
  core: ServerCore,
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
    throw McpError.invalidParams(`Missing _meta["${MetaKey.ClientCapabilities}"]`);
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
  const result = runRow(route, core, call, p, undefined);
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

/**
 * Runs a table row: the server capability it needs (-32601 without), its params check, its handler.
 * `conn` is the legacy session's connection; a modern request has none.
 */
function runRow(
  route: MethodRoute,
  core: ServerCore,
  call: CallInfo,
  p: Params,
  conn: Conn | undefined,
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
