import type { JsonRpcErrorObject } from "./errors.js";
import type { JsonRpcId } from "./messages.js";
import type { MessageInfo } from "./transport.js";

type Params = Record<string, unknown> | unknown[] | undefined;

/**
 * Watches every message a {@link Peer} exchanges, for tracing and metrics: the one seam a protocol on top
 * (MCP telemetry) hooks into. The peer knows nothing of what the observer records.
 *
 * Contract: every method is called synchronously on the peer's path, so it must be cheap and must not
 * throw (a throw fails the send or the handler as the peer's own code would). A watch's `end` is called
 * exactly once per watch the observer returned: with the result, or with the error the peer settled on.
 * An observer that returns `undefined` is not told the outcome. The peer allocates nothing for observation
 * when no observer is set.
 */
export interface PeerObserver {
  /**
   * An outbound request with its assigned id is about to go out. Returns the watch of its outcome, whose
   * `params` replace the ones sent (a tracer adds its context to them), or `undefined` to send as is.
   * `operation` is the request's `RequestOptions.operation`: requests that share it are one operation.
   */
  requestOut(
    method: string,
    params: Params,
    id: JsonRpcId,
    operation?: object | undefined,
  ): OutboundWatch | undefined;
  /** An outbound notification is about to go out; returns the params to send instead (or the same ones). */
  notificationOut(method: string, params: Params): Params;
  /**
   * An inbound request arrived and has a handler. Returns the watch that runs the handler (inside the
   * observer's context, so the handler's own requests are its children) and is told the answer sent.
   */
  requestIn(
    method: string,
    params: Params,
    id: JsonRpcId,
    info: MessageInfo | undefined,
  ): InboundWatch | undefined;
  /** An inbound notification arrived; the returned watch runs its handler and is ended after it. */
  notificationIn(method: string, params: Params, info: MessageInfo | undefined): InboundWatch | undefined;
}

/** The outcome watch of one outbound request. */
export interface OutboundWatch {
  /** The params to send in place of the caller's (never the caller's object mutated). */
  readonly params: Params;
  /** The answer (`error` undefined) or the failure: a `JsonRpcError`, a timeout, an abort reason. */
  end(result: unknown, error: unknown): void;
}

/** The watch of one inbound request or notification. */
export interface InboundWatch {
  /** Calls `fn(a, b)` inside the watch's context and returns what it returns (a promise stays one). */
  run<A, B, R>(fn: (a: A, b: B) => R, a: A, b: B): R;
  /**
   * The answer that was sent (`error` undefined), or the error object sent instead; `undefined` for both
   * when nothing was sent (a cancelled request, a closed peer, a notification handled).
   */
  end(result: unknown, error: JsonRpcErrorObject | undefined): void;
}
