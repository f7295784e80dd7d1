import type { JsonRpcId } from "@mcpkit/jsonrpc";
import type { StreamableHttpHandlerOptions } from "../handler.js";
import { type HttpLimitEvent, type HttpLimitName, RETRY_AFTER_SECONDS } from "../limits.js";
import type { ServerLike } from "../server-like.js";
import type { SessionStore } from "../session-store.js";
import { errorReply, type Reply } from "./http-util.js";
import type { Session, SessionSettings } from "./legacy-session.js";
import type { ModernExchange } from "./modern.js";
import type { SseBufferLimit } from "./sse-connection.js";

/**
 * What one handler made by `createStreamableHttpHandler` knows: its settings (options with defaults
 * applied) and its live state. Built once per handler and passed to the route functions, so a request
 * creates no closures over it.
 */
export interface HandlerState {
  /**
   * The options as given, with `connect` filled in from `server` when only that was given (`connect` is
   * called as `options.connect(…)`, as the app wrote it).
   */
  readonly options: StreamableHttpHandlerOptions & Required<Pick<StreamableHttpHandlerOptions, "connect">>;
  /** What answers 2026-07-28 requests: `options.server`, or `connect` adapted when only that was given. */
  readonly server: Pick<ServerLike, "handle">;
  readonly serveLegacy: boolean;
  readonly serveModern: boolean;
  /** The versions served, of both eras. */
  readonly supported: readonly string[];
  readonly supportedModern: readonly string[];
  readonly supportedLegacy: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly allowedHosts: readonly string[] | undefined;
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly maxConcurrent: number;
  readonly maxPerSession: number;
  readonly preferJson: boolean;
  readonly keepAliveInterval: number;
  readonly handshakeTimeout: number;
  /** The shared session record's TTL. */
  readonly recordTtl: number;
  readonly onLimit: (event: HttpLimitEvent) => void;
  readonly onError: (error: Error) => void;
  /** The legacy sessions this instance serves (replicas of shared ones included). */
  readonly sessions: Map<string, Session>;
  /** The modern requests in flight. */
  readonly exchanges: Set<ModernExchange>;
  /** Legacy exchanges in flight (the sessions count them). */
  readonly load: { exchanges: number };
  /** The session store when legacy sessions are shared. */
  readonly cluster: SessionStore | undefined;
  readonly settings: SessionSettings;
  readonly sseLimit: SseBufferLimit | undefined;
  closed: boolean;
}

/** A check's refusal: the reply to send instead of going on. */
export class Rejection {
  constructor(readonly response: Reply) {}
}

/** A {@link Rejection} carrying a JSON-RPC error reply with this HTTP status. */
export function reject(
  status: number,
  code: number,
  message: string,
  id?: JsonRpcId | null,
  data?: unknown,
): Rejection {
  return new Rejection(errorReply(status, code, message, id, data));
}

/** The `Allow` header of a 405. */
export const ALLOW = { allow: "GET, POST, DELETE" };

/** The `Retry-After` of a 503 or 429 for a limit of requests in flight. */
export const RETRY_AFTER = { "retry-after": String(RETRY_AFTER_SECONDS) };

/** Hands an internal failure to `onError` (called as a plain function, as the option is documented). */
export function reportError(state: HandlerState, error: unknown): void {
  const onError = state.onError;
  onError(error instanceof Error ? error : new Error(String(error)));
}

/** Tells `onLimit` (a throwing `onLimit` must not break the reply). */
export function limitReached(
  state: HandlerState,
  limit: HttpLimitName,
  value: number,
  status: number | undefined,
  message: string,
  sessionId?: string,
): void {
  const event: HttpLimitEvent = { limit, value, message };
  if (status !== undefined) event.status = status;
  if (sessionId !== undefined) event.sessionId = sessionId;
  const onLimit = state.onLimit;
  try {
    onLimit(event);
  } catch (error) {
    reportError(state, error);
  }
}

/** The 503 for a handler at `maxConcurrentRequests`, or undefined when one more request may run. */
export function overloaded(state: HandlerState, id: JsonRpcId | undefined): Reply | undefined {
  const maxConcurrent = state.maxConcurrent;
  if (state.load.exchanges + state.exchanges.size < maxConcurrent) return undefined;
  limitReached(state, "maxConcurrentRequests", maxConcurrent, 503, "a request was refused with 503");
  return errorReply(
    503,
    -32600,
    `Service unavailable: more than ${maxConcurrent} requests in flight; retry later`,
    id,
    undefined,
    RETRY_AFTER,
  );
}

/** The 503 for a handler at `maxSessions` (an initialize, or a shared session to take up). */
export function tooManySessions(state: HandlerState, id: JsonRpcId | undefined): Rejection {
  limitReached(state, "maxSessions", state.maxSessions, 503, "an initialize was refused with 503");
  return new Rejection(
    errorReply(503, -32600, "Too many sessions; retry later", id, undefined, {
      "retry-after": String(10 * RETRY_AFTER_SECONDS),
    }),
  );
}
