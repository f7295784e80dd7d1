import {
  ConnectionClosedError,
  isObject,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "@mcpkit/jsonrpc";
import { decodeHeaderValue, Header, MetaKey, mcpNameFor } from "@mcpkit/protocol";
import { type HandlerState, overloaded, Rejection, reject, reportError } from "./handler-state.js";
import { emptyReply, errorReply, type Reply } from "./http-util.js";
import type { InboundRequest } from "./inbound.js";
import { messageInfo } from "./message-info.js";
import { ModernExchange } from "./modern.js";
import type { ValidMessage } from "./request-checks.js";

function versionMismatch(header: string, metaVersion: string, id: JsonRpcId | undefined): Rejection {
  return reject(
    400,
    -32020,
    `Header mismatch: MCP-Protocol-Version ${header} differs from _meta protocolVersion ${metaVersion}`,
    id,
  );
}

/**
 * A modern POST's version, envelope and header checks: its protocol version, or the refusal (400 -32022
 * with `{ supported, requested }`; -32602 for params or `_meta` that are not objects, or a request
 * without `_meta` version or client capabilities; -32020 for a header that differs from the body). The
 * envelope's 400s are answered here, so that statuses follow from JSON-RPC codes alone afterwards.
 * @see SPEC.md §3.11 (2026-07-28)
 */
export function checkModern(
  state: HandlerState,
  req: InboundRequest,
  parsed: ValidMessage,
): string | Rejection {
  const message = parsed.message as { id?: JsonRpcId; method?: string; params?: unknown };
  const id = parsed.kind === "request" ? message.id : undefined;
  const header = req.header(Header.ProtocolVersion)?.trim();
  const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
  const metaVersion = isObject(meta) ? meta[MetaKey.ProtocolVersion] : undefined;
  if (header === undefined || header === "") {
    if (metaVersion === undefined) {
      // A legacy request (initialize) at a modern-only server: name the versions we speak.
      const asked = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      return reject(400, -32022, "Unsupported protocol version", id, {
        supported: state.supported,
        requested: typeof asked === "string" ? asked : "",
      });
    }
    return reject(400, -32020, "Header mismatch: the MCP-Protocol-Version header is required", id);
  }
  // A header that disagrees with the body is a mismatch, whatever the header names (SPEC.md §3.11).
  if (typeof metaVersion === "string" && metaVersion !== header)
    return versionMismatch(header, metaVersion, id);
  if (!state.supportedModern.includes(header)) {
    return reject(400, -32022, `Unsupported protocol version: ${header}`, id, {
      supported: state.supported,
      requested: header,
    });
  }
  // Header rules for notification POSTs are undefined in 2026-07-28 (SPEC.md §8.9): only the version is checked.
  if (parsed.kind !== "request") return header;
  // Params that are not an object, or a `_meta` that is not one, have no version either: refused here.
  if (typeof metaVersion !== "string") {
    return reject(400, -32602, `Invalid params: _meta["${MetaKey.ProtocolVersion}"] is required`, id);
  }
  const rawMethod = req.header(Header.Method);
  if (rawMethod === null)
    return reject(400, -32020, "Header mismatch: the Mcp-Method header is required", id);
  // Like every Mcp-* value, the method may come in the `=?base64?…?=` form: compare what it says.
  if (decodeHeaderValue(rawMethod.trim()) !== message.method) {
    return reject(400, -32020, "Header mismatch: Mcp-Method differs from the body's method", id);
  }
  const expectedName = mcpNameFor(message.method as string, message.params);
  if (expectedName !== undefined) {
    // Header values are compared after trimming optional whitespace (RFC 9110 §5.5) and decoding base64.
    const raw = req.header(Header.Name);
    if (raw === null) return reject(400, -32020, "Header mismatch: the Mcp-Name header is required", id);
    if (decodeHeaderValue(raw.trim()) !== expectedName) {
      return reject(400, -32020, "Header mismatch: Mcp-Name differs from the body", id);
    }
  }
  // The server says -32602 too (over a pipe); over HTTP this envelope error is a 400, said here.
  if (!isObject((meta as Record<string, unknown>)[MetaKey.ClientCapabilities])) {
    return reject(400, -32602, `Missing _meta["${MetaKey.ClientCapabilities}"]`, id);
  }
  return header;
}

/**
 * A modern POST: checked, then answered by the server's `handle` as a function call (no transport or
 * connection for it). A request's reply is its exchange's response, JSON or SSE; a notification is
 * answered 202 once handed over.
 */
export function handleModernPost(
  state: HandlerState,
  req: InboundRequest,
  parsed: ValidMessage,
): Reply | Promise<Reply> {
  const version = checkModern(state, req, parsed);
  if (version instanceof Rejection) return version.response;
  if (parsed.kind === "success" || parsed.kind === "error") {
    return errorReply(400, -32600, "Invalid Request: clients do not send responses in this protocol version");
  }
  if (parsed.kind === "notification") return handleModernNotification(state, req, parsed.message, version);
  const message = parsed.message as JsonRpcRequest;
  const busy = overloaded(state, message.id);
  if (busy) return busy;
  const abort = new AbortController();
  const exchange = new ModernExchange(
    message.id,
    messageInfo(req, version, undefined, abort.signal),
    abort,
    state.preferJson,
    state.keepAliveInterval,
    state.sseLimit,
  );
  const inFlight = state.exchanges;
  inFlight.add(exchange);
  exchange.onFinish = () => inFlight.delete(exchange);
  req.onGone(() => exchange.clientGone());
  let outcome: JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;
  try {
    outcome = state.server.handle(message, exchange);
  } catch (error) {
    return failed(state, exchange, error);
  }
  if (outcome instanceof Promise) {
    outcome.then(
      (response) => exchange.answer(response),
      (error: unknown) => void failed(state, exchange, error),
    );
  } else exchange.answer(outcome);
  return exchange.response;
}

/** The server failed locally (a throw, not an error response): a generic 500, the detail to `onError`. */
function failed(state: HandlerState, exchange: ModernExchange, error: unknown): Promise<Reply> {
  reportError(state, error);
  exchange.abandon();
  return exchange.response;
}

/** A notification POST: handed to the server, answered 202 (a failure goes to `onError`). */
function handleModernNotification(
  state: HandlerState,
  req: InboundRequest,
  message: JsonRpcNotification,
  version: string,
): Reply {
  const context = { info: messageInfo(req, version, undefined, undefined), signal: NEVER, notify: noStream };
  try {
    const done = state.server.handle(message, context);
    if (done instanceof Promise) done.catch((error: unknown) => reportError(state, error));
  } catch (error) {
    reportError(state, error);
  }
  return emptyReply(202);
}

/** The signal of a notification: nothing can cancel it. */
const NEVER = new AbortController().signal;

function noStream(): void {
  throw new ConnectionClosedError("A notification has no response stream");
}
