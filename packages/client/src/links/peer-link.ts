import type { RequestOptions } from "@mcpkit/jsonrpc";
import { toWireError } from "../internal/util.js";
import type { Outbound } from "./link.js";

/**
 * The end of the chain: the request on the session's peer, with what the links above computed (the
 * params with `_meta`, the headers, the timing, the telemetry token). A wire error comes out as `McpError`;
 * an abort as `signal.reason`; a timeout as `TimeoutError`.
 */
export function sendOnPeer(op: Outbound): Promise<unknown> {
  let options = op.timing ?? {};
  if (op.headers !== undefined || op.onId !== undefined || op.operation !== undefined) {
    // Not a spread: more keys after a spread cost a hidden class per copy on Node 20.
    options = Object.assign({}, options) as RequestOptions;
    if (op.headers !== undefined) options.headers = op.headers;
    if (op.onId !== undefined) options.onId = op.onId;
    if (op.operation !== undefined) options.operation = op.operation;
  }
  return op.session.peer.request(op.method, op.wire, options).catch(rethrowWire);
}

function rethrowWire(error: unknown): never {
  throw toWireError(error);
}
