import { JsonRpcError, type JsonRpcId, type RequestOptions } from "@mcpkit/jsonrpc";
import { McpErrorCode, MODERN_PROTOCOL_VERSIONS, readUnsupportedVersionData } from "@mcpkit/protocol";
import type { Lock } from "./internal/lock.js";
import { isSessionExpired, toWireError } from "./internal/util.js";
import type { CallOptions } from "./options.js";
import { currentRequestConfig, type RequestConfig, resolveRequestConfig } from "./request-config.js";
import type { RequestEnvelope } from "./request-envelope.js";
import type { Session } from "./session.js";

/** What an exchange needs from the rest of the client to retry as the spec asks. */
export interface ExchangeHooks {
  /** Whether the client is open: a closing client retries nothing. */
  isOpen(): boolean;
  /** Initializes a legacy session again, on the same transport, after its HTTP session expired. */
  reinitialize(session: Session, cause: unknown): Promise<void>;
  /** Lists the tools again (the `Mcp-Param-*` headers were built from a stale list). */
  refreshTools(): Promise<unknown>;
}

/**
 * One request/response exchange on a session: the envelope (`_meta`, headers), the timeout settings
 * (call > ambient `withRequestConfig` > session > defaults), the turn when `serialize` is on, and the
 * single retry the spec asks for after an expired legacy session (re-initialize), a dropped modern version
 * (the server names the ones to use) or an `Mcp-Param-*` mismatch (list the tools again).
 *
 * A wire error comes out as `McpError`; an abort as `signal.reason`; a timeout as `TimeoutError`.
 */
export class Exchange {
  readonly #requestConfig: RequestConfig;
  readonly #envelope: RequestEnvelope;
  readonly #lock: Lock | undefined;
  readonly #hooks: ExchangeHooks;
  // The peer options of a call that sets nothing itself, outside any withRequestConfig scope: the same
  // every time (the session settings are fixed at construction), so made once.
  #plain: RequestOptions | undefined = undefined;

  constructor(
    requestConfig: RequestConfig,
    envelope: RequestEnvelope,
    lock: Lock | undefined,
    hooks: ExchangeHooks,
  ) {
    this.#requestConfig = requestConfig;
    this.#envelope = envelope;
    this.#lock = lock;
    this.#hooks = hooks;
  }

  /**
   * Sends `method` on `session` and resolves with its result.
   * @param onId told the request's id before it leaves (a listen stream keys its notifications by it).
   * @param operation shared by the requests of one operation (MRTR rounds, task polls): telemetry links
   *   each to the first.
   */
  request(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions | undefined,
    onId?: (id: JsonRpcId) => void,
    operation?: object,
  ): Promise<unknown> {
    return this.#exchange(session, method, params, call, onId, false, operation);
  }

  /** The peer options of one call (shared when the call sets nothing of its own). */
  peerOptions(call: CallOptions | undefined): RequestOptions {
    if (call === undefined && currentRequestConfig() === undefined) {
      this.#plain ??= this.#fromConfig(undefined);
      return this.#plain;
    }
    return this.#fromConfig(call);
  }

  #fromConfig(call: CallOptions | undefined): RequestOptions {
    const config = resolveRequestConfig(call, this.#requestConfig);
    const peerOptions: RequestOptions = {
      timeout: config.timeout,
      resetTimeoutOnProgress: config.resetTimeoutOnProgress,
    };
    if (config.maxTotalTimeout !== undefined) peerOptions.maxTotalTimeout = config.maxTotalTimeout;
    if (call?.signal) peerOptions.signal = call.signal;
    if (call?.onProgress) peerOptions.onProgress = call.onProgress;
    return peerOptions;
  }

  async #exchange(
    s: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions | undefined,
    onId: ((id: JsonRpcId) => void) | undefined,
    retried: boolean,
    operation?: object,
  ): Promise<unknown> {
    const envelope = this.#envelope;
    let peerOptions = this.peerOptions(call);
    const lock = this.#lock;
    const release = lock && method !== "subscriptions/listen" ? await lock.acquire(call?.signal) : undefined;
    // After the turn was taken: the headers must name the version the `_meta` will carry.
    const headers = envelope.headers(s, method, params);
    if (headers !== undefined || onId !== undefined || operation !== undefined) {
      peerOptions = Object.assign({}, peerOptions);
      if (headers !== undefined) peerOptions.headers = headers;
      if (onId !== undefined) peerOptions.onId = onId;
      if (operation !== undefined) peerOptions.operation = operation;
    }
    let result: unknown;
    try {
      result = await s.peer.request(method, envelope.params(s, params, call?.meta), peerOptions);
    } catch (error) {
      release?.();
      if (!retried && !s.dead && this.#hooks.isOpen()) {
        // A legacy Streamable HTTP session that expired (404): initialize again, once, and retry.
        if (s.era === "legacy" && isSessionExpired(error)) {
          await this.#hooks.reinitialize(s, error);
          return this.#exchange(s, method, params, call, onId, true, operation);
        }
        // A modern server that dropped our version names the ones to use.
        if (s.era === "modern" && error instanceof JsonRpcError) {
          if (error.code === McpErrorCode.UnsupportedProtocolVersion) {
            const supported = readUnsupportedVersionData(error)?.supported ?? [];
            const next = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v) && v !== s.version);
            if (next) {
              s.speak("modern", next);
              return this.#exchange(s, method, params, call, onId, true, operation);
            }
          }
          // Mcp-Param headers built from a stale tool list: list again, then retry. @see SPEC.md §3.11
          if (error.code === McpErrorCode.HeaderMismatch && method === "tools/call" && s.httpLike) {
            await this.#hooks.refreshTools();
            return this.#exchange(s, method, params, call, onId, true, operation);
          }
        }
      }
      throw toWireError(error);
    }
    release?.();
    return result;
  }
}
