import { ConnectionClosedError, TransportError } from "./errors.js";
import type { JsonRpcId, JsonRpcRequest } from "./messages.js";
import type { Params, RequestOptions } from "./peer-types.js";
import type { SendOptions } from "./transport.js";

/** 60 s: the default timeout of a request. */
export const DEFAULT_REQUEST_TIMEOUT = 60_000;

/**
 * The message of one outbound request; with `progressToken`, its params carry the request's id as
 * `_meta.progressToken` (copies: the caller's params are never changed).
 */
export function requestMessage(
  id: JsonRpcId,
  method: string,
  params: Params,
  progressToken: boolean,
): JsonRpcRequest {
  let out = params;
  if (progressToken) {
    const base = (out && !Array.isArray(out) ? out : {}) as Record<string, unknown>;
    const meta = (base._meta ?? {}) as Record<string, unknown>;
    // Not spreads: more keys after a spread cost a hidden class per copy on Node 20.
    const withToken = Object.assign({}, meta);
    withToken.progressToken = id;
    const copy = Object.assign({}, base);
    copy._meta = withToken;
    out = copy;
  }
  return out === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: out };
}

/**
 * The transport's options of one request's send: the signal of its own stream, the request it belongs
 * to, its headers. One shape for every options object (no per-case literal), and none at all when
 * nothing goes down.
 */
export function requestSendOptions(
  controller: AbortController | undefined,
  opts: RequestOptions,
): SendOptions | undefined {
  const related = opts.relatedRequestId;
  const headers = opts.headers;
  if (controller === undefined && related === undefined && headers === undefined) return undefined;
  const sendOptions: SendOptions = {};
  if (controller !== undefined) sendOptions.signal = controller.signal;
  if (related !== undefined) sendOptions.relatedRequestId = related;
  if (headers !== undefined) sendOptions.headers = headers;
  return sendOptions;
}

/** Throws a RangeError naming `name` unless `value` is a positive number of milliseconds or Infinity. */
export function checkTimeout(name: string, value: number): void {
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new RangeError(
      `${name} must be a positive number of milliseconds or Infinity, got ${String(value)}`,
    );
  }
}

/** The params of the `notifications/cancelled` for request `id` given up for `reason`. */
export function cancelParams(id: JsonRpcId, reason: unknown): Record<string, unknown> {
  const text = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : undefined;
  const params: Record<string, unknown> = { requestId: id };
  if (text) params.reason = text;
  return params;
}

/** What a request whose send failed rejects with: the transport's own error, else a TransportError. */
export function sendFailure(method: string, error: unknown): Error {
  return error instanceof ConnectionClosedError || error instanceof TransportError
    ? error
    : new TransportError(`Could not send ${method}`, { cause: error });
}
