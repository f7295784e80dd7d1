import {
  ErrorCode,
  JsonRpcError,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type MessageInfo,
} from "@mcpkit/jsonrpc";
import { dispatchModern } from "./dispatch.js";
import { type ModernObservation, observeModern } from "./modern-observation.js";
import { ModernRequest } from "./modern-request.js";
import type { ServerCore } from "./server-core.js";
import { serverTelemetry } from "./telemetry.js";

/** What the carrier of one 2026-07-28 request hands {@link handleModern} besides the message. */
export interface HandleContext {
  /**
   * What the carrier knows about the message (HTTP headers, the verified identity as `authInfo`);
   * handlers read it as `ctx.transportInfo` and `ctx.authInfo`. Passed through untouched.
   */
  readonly info?: MessageInfo | undefined;
  /**
   * Aborted when the request is cancelled: in 2026-07-28 HTTP, when its response stream closed. The
   * handler's `ctx.signal`; `info.signal` when absent; a signal that never aborts when neither is given.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Sends one notification of this request before its response, on the request's own stream (progress,
   * log messages, the events of a `subscriptions/listen`). A rejection means the stream is gone (the
   * handler is not failed for it). Without it those notifications are dropped.
   */
  notify?(message: JsonRpcNotification): void | Promise<void>;
}

/** What one request gets from {@link handleModern}: its response, or undefined when it was cancelled. */
export type HandleResult = JsonRpcResponse | undefined;

type Params = Record<string, unknown>;

/**
 * Answers one 2026-07-28 request or notification with the server of `core`, without a transport, a peer
 * or a connection record: the method table's row runs with a light {@link ModernRequest} context and its
 * outcome becomes the JSON-RPC response (a thrown wire error as it is, anything else a generic -32603
 * whose detail goes to the logger). A notification is observed and answered with undefined (the
 * 2026-07-28 revision gives a server nothing to do with one). A request cancelled before it settled gets
 * undefined too: nobody can receive its answer. Mapping the response to an HTTP status is the carrier's.
 * @throws Error (a rejection) after `Server.close()`.
 */
export function handleModern(
  core: ServerCore,
  message: JsonRpcRequest | JsonRpcNotification,
  context: HandleContext,
): HandleResult | Promise<HandleResult> {
  if (core.isClosed) return Promise.reject(new Error("Server.handle() was called after close()"));
  const observation = core.modernObservation;
  if (observation !== undefined) return answer(core, observation, message, context);
  // The first request: telemetry resolves once (an import), then every request is synchronous up to its row.
  core.connectedOnce = true;
  const known = serverTelemetry(core.options);
  if (!(known instanceof Promise)) return answer(core, observe(core, known), message, context);
  return known.then((telemetry) => answer(core, observe(core, telemetry), message, context));
}

function observe(core: ServerCore, telemetry: Parameters<typeof observeModern>[1]): ModernObservation {
  core.modernObservation ??= observeModern(core.options, telemetry);
  return core.modernObservation;
}

function answer(
  core: ServerCore,
  observation: ModernObservation,
  message: JsonRpcRequest | JsonRpcNotification,
  context: HandleContext,
): HandleResult | Promise<HandleResult> {
  const { observer, tap } = observation;
  tap?.("in", message);
  const params = message.params as Params | undefined;
  if (!("id" in message) || message.id === undefined) {
    // Observed (a span), nothing else: no 2026-07-28 notification asks a stateless server for anything.
    observer?.notificationIn(message.method, params, context.info)?.end(undefined, undefined);
    return undefined;
  }
  const id = message.id;
  const rctx = new ModernRequest(id, message.method, context, observer, tap);
  let outcome: unknown;
  try {
    const watch = observer?.requestIn(message.method, params, id, context.info);
    rctx.watch = watch;
    outcome =
      watch === undefined
        ? dispatchModern(core, params, rctx)
        : watch.run((p: unknown, r: ModernRequest) => dispatchModern(core, p, r), params, rctx);
  } catch (error) {
    return settle(core, rctx, undefined, error, false);
  }
  if (outcome instanceof Promise) {
    return outcome.then(
      (result) => settle(core, rctx, result, undefined, true),
      (error: unknown) => settle(core, rctx, undefined, error, false),
    );
  }
  return settle(core, rctx, outcome, undefined, true);
}

/** The response of a settled request (what the peer's `finish` does for a connection). */
function settle(
  core: ServerCore,
  rctx: ModernRequest,
  result: unknown,
  error: unknown,
  ok: boolean,
): HandleResult {
  const watch = rctx.watch;
  if (rctx.aborted) {
    watch?.end(undefined, undefined);
    return undefined;
  }
  const id: JsonRpcId = rctx.id;
  let response: JsonRpcResponse;
  if (ok) {
    const value = (result ?? {}) as Params;
    watch?.end(value, undefined);
    response = { jsonrpc: "2.0", id, result: value };
  } else {
    let wire: JsonRpcErrorObject;
    if (error instanceof JsonRpcError) wire = error.toJSON();
    else {
      core.reportUnexpected(error instanceof Error ? error : new Error(String(error)));
      wire = { code: ErrorCode.InternalError, message: "Internal error" };
    }
    watch?.end(undefined, wire);
    response = { jsonrpc: "2.0", id, error: wire };
  }
  rctx.tap?.("out", response);
  return response;
}
