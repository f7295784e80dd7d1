import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type SendOptions,
  type Transport,
  TransportError,
  type TransportSink,
} from "@mcpkit/jsonrpc";
import { discardBody, type ResponseBodyReader } from "./body-reader.js";
import { HttpError, ResponseTooLargeError, SessionExpiredError } from "./errors.js";
import {
  errorText,
  fetchExchange,
  linkExchangeSignal,
  readErrorObject,
} from "./internal/http-client-fetch.js";
import { readJsonReply, readSseReply } from "./internal/http-client-reply.js";
import { HttpClientState, type RequestMessage } from "./internal/http-client-state.js";
import { LegacyClientSession } from "./internal/legacy-client-session.js";
import type { SseCursor } from "./internal/sse-read.js";

/** Reconnection of SSE streams (legacy GET stream, resumption of a broken POST stream). */
export interface ReconnectOptions {
  /** Delay before the first reconnection when the server sent no `retry`. Default 1000 ms. */
  initialDelay?: number;
  /** Cap of the growing delay. Default 30 000 ms. */
  maxDelay?: number;
  /** Growth of the delay per failed attempt. Default 1.5. */
  growFactor?: number;
  /** Failed attempts in a row before giving up. Default 2. */
  maxRetries?: number;
}

/** Options of {@link createStreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /**
   * The fetch to use (default the global one); tests route it into a handler without a socket.
   * Authorization is a fetch wrapper here: `withAuth(provider, { fetch })` from `@mcpkit/auth` adds the
   * provider's headers and answers a 401/403 by re-sending; a fixed token fits in `headers`.
   * A fetch whose `acceptsLightSignal` is `true` (`createNodeFetch`'s `NodeFetch` from `./node`) is handed
   * a light abort signal (the part of `AbortSignal` it uses) instead of one `AbortController` per request;
   * set it only on a fetch that converts such a signal before anything else reads it.
   */
  fetch?: ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & {
    readonly acceptsLightSignal?: boolean;
  };
  /**
   * Reads response bodies the fetch's own way (default: `response.body`, a Web stream). With
   * `createNodeFetch` from `./node`, pass `nodeBodyReader` (also from `./node`): SSE replies are then
   * read from the socket's stream directly, and one that arrived whole is parsed in one pass.
   */
  bodyReader?: ResponseBodyReader;
  /**
   * The era to start in. `legacy`: sessions (`Mcp-Session-Id`), the GET stream, resumption,
   * `notifications/cancelled`. `modern` (2026-07-28): a stream per request, and each request's headers
   * exactly as its send gives them. Default: the era of `protocolVersion`, else `legacy`. Afterwards the era
   * follows what comes down with the sends: the `MCP-Protocol-Version` a request's `SendOptions.headers`
   * carry, and `initialize` (legacy).
   */
  era?: "legacy" | "modern";
  /**
   * Legacy: the protocol version the session's requests announce in `MCP-Protocol-Version` until a send or
   * an initialize result names one. A modern request carries the headers its send gives, nothing else.
   */
  protocolVersion?: string;
  /** Join an existing legacy session instead of starting one with `initialize`. */
  sessionId?: string;
  /** Legacy: open the standalone GET stream once the session is initialized. Default true. */
  openStandaloneStream?: boolean;
  reconnect?: ReconnectOptions;
  /** Legacy: the server forgot the session (404). The client should re-initialize. */
  onSessionExpired?: (error: SessionExpiredError) => void;
  /** Failures nobody awaits (the GET stream gave up, DELETE failed). */
  onError?: (error: Error) => void;
  /** Bound on the DELETE sent on close, in ms. Default 3000. */
  closeTimeout?: number;
  /**
   * The most one response body (JSON or error) or one SSE event may hold, in bytes (an SSE event is
   * measured in decoded characters, its bytes for JSON text). Past it the stream is cut and the call
   * fails with `ResponseTooLargeError` naming the cap; a cut stream is not resumed. Default
   * `DEFAULT_MAX_RESPONSE_BYTES` (16 MiB). With `createNodeFetch`, raise its `maxBodyBytes` too.
   */
  maxResponseBytes?: number;
}

/** The Streamable HTTP client transport, with the session state it keeps. */
export interface StreamableHttpClientTransport extends Transport {
  /** The legacy session id, once the initialize response issued one. */
  readonly sessionId: string | undefined;
  /** The era of the last request sent (see {@link StreamableHttpClientTransportOptions.era}). */
  readonly era: "legacy" | "modern";
  /** The version last sent as `MCP-Protocol-Version` or chosen by an initialize result. */
  readonly protocolVersion: string | undefined;
  /** The MCP endpoint (telemetry reads its host and port for `server.address` / `server.port`). */
  readonly url: string;
  /** Legacy: DELETEs the session (bounded by `closeTimeout`) and forgets it; the transport stays open. */
  terminateSession(): Promise<void>;
}

function isRequest(message: JsonRpcMessage): message is JsonRpcMessage & RequestMessage {
  return "method" in message && "id" in message;
}

/**
 * Creates the Streamable HTTP client transport for both protocol eras.
 *
 * Each message is one POST. A request's reply is read from a JSON body or an SSE stream and handed to
 * the sink; `send()` of a request resolves once its response was delivered and rejects when it cannot
 * be: with `HttpError` for an HTTP error whose body is not a JSON-RPC error response (a body that IS
 * one is delivered as the request's error response instead, so the request rejects with its code),
 * with `SessionExpiredError` on a legacy 404, with `TransportError` when the stream broke beyond
 * resumption. Notifications and responses resolve on 202.
 *
 * **It sends the headers it is given and computes none** from a message: a request's
 * `SendOptions.headers` go on its POST as they are (`@mcpkit/client` computes every `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` header; a bare `Peer` passes `modernRequestHeaders(…)` from
 * `@mcpkit/protocol`). What it adds is its own: the app's `headers`, `content-type`/`accept`, and in the
 * legacy era the session's state (internal/legacy-client-session.ts): the `Mcp-Session-Id` the initialize
 * response issued and the version it chose; the GET stream after `notifications/initialized` (405
 * tolerated); resumption of broken streams with `Last-Event-ID` after the server's `retry`; the DELETE on
 * close. Modern: `traits.perRequestStream` is true, so aborting a request aborts its fetch, which is the
 * cancellation. Nothing is called back: the era follows the `MCP-Protocol-Version` that comes down with
 * each request (an `initialize` is legacy).
 * @see SPEC.md §3.11, §4.8
 */
export function createStreamableHttpClientTransport(
  options: StreamableHttpClientTransportOptions,
): StreamableHttpClientTransport {
  const state = new HttpClientState(options);
  const legacy = new LegacyClientSession(state);
  const { url, bodyReader } = state;
  const discard = (response: Response) => discardBody(response, bodyReader);

  /** The POST's headers: the app's, the body's type, the legacy session's, then the send's as given. */
  function postHeaders(method: string | undefined, given: Readonly<Record<string, string>> | undefined) {
    const headers = state.startHeaders();
    headers["content-type"] = "application/json";
    headers.accept = "application/json, text/event-stream";
    if (state.era === "legacy") legacy.addPostHeaders(headers, method);
    if (given !== undefined) Object.assign(headers, given);
    return headers;
  }

  async function send(message: JsonRpcMessage, sendOptions?: SendOptions): Promise<void> {
    if (state.closed) throw new ConnectionClosedError("The HTTP transport is closed");
    const sink = state.sink;
    if (!sink) throw new Error("StreamableHttpClientTransport.send() before start()");
    const req = isRequest(message) ? message : undefined;
    const given = sendOptions?.headers;
    // Only a request's own abort cancels its fetch; notifications and responses run to completion.
    const link = linkExchangeSignal(state, req ? sendOptions?.signal : undefined);
    const signal = link.signal;
    try {
      if (req !== undefined) state.follow(req.method, given);
      const sentSession = state.era === "legacy" ? legacy.sessionId : undefined;
      const method = (message as { method?: string }).method;
      const body = JSON.stringify(message);
      const response = await fetchExchange(state, "POST", postHeaders(method, given), body, signal);
      if (state.era === "legacy" && method === "initialize") legacy.capture(response);
      // 404 on a request that carried a session id means the session is gone (SPEC.md §4.8), whatever the body.
      if (response.status === 404 && sentSession !== undefined) {
        discard(response);
        throw legacy.expire();
      }
      if (!response.ok) {
        const text = await errorText(state, response);
        const parsed = readErrorObject(text);
        // A 404 whose error answers no request (`id: null`) is a wrong URL, not an answer: saying so with
        // the URL beats relaying the server's generic "Not found (-32600)".
        if (req && parsed && (response.status !== 404 || parsed.id === req.id)) {
          // The server answered the request with a JSON-RPC error: deliver it as the request's answer.
          state.deliver({ jsonrpc: "2.0", id: req.id, error: parsed.error });
          return;
        }
        throw new HttpError(response.status, response.statusText, text, parsed?.error, url);
      }
      if (!req) {
        discard(response);
        if (method === "notifications/initialized") legacy.openStandalone();
        return;
      }
      if (response.status === 202 || response.status === 204) {
        throw new TransportError(
          `The server accepted request ${String(req.id)} (HTTP ${response.status}) without answering it`,
        );
      }
      const contentType = response.headers.get("content-type") ?? "";
      if (contentType.includes("text/event-stream")) {
        // A stream that ends (or breaks) before the response is resumed by GET in the legacy era; the
        // modern era has no resumption, so the request fails and the caller re-issues it.
        const cursor: SseCursor = { lastEventId: "", retry: undefined };
        let answered = false;
        try {
          answered = await readSseReply(state, response, cursor, req, signal);
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          if (error instanceof ResponseTooLargeError) throw error;
          if (state.era !== "legacy") {
            throw new TransportError(`The response stream of request ${String(req.id)} broke`, {
              cause: error,
            });
          }
        }
        if (!answered) await legacy.resume(cursor, req, signal);
        return;
      }
      if (contentType.includes("application/json")) {
        await readJsonReply(state, response, req);
        return;
      }
      discard(response);
      throw new TransportError(
        `Unexpected content type ${JSON.stringify(contentType)} in the reply to request ${String(req.id)}`,
      );
    } catch (error) {
      if (signal.aborted && error !== signal.reason && !(error instanceof SessionExpiredError))
        throw signal.reason;
      throw error;
    } finally {
      link.release();
    }
  }

  return {
    traits: {
      get perRequestStream() {
        return state.era === "modern";
      },
      perRequestHeaders: true,
    },
    url: url.href,
    get sessionId() {
      return legacy.sessionId;
    },
    get era() {
      return state.era;
    },
    get protocolVersion() {
      return state.protocolVersion;
    },
    terminateSession: () => legacy.terminate(),
    async start(s: TransportSink) {
      if (state.sink) throw new Error("StreamableHttpClientTransport.start() was called twice");
      if (state.closed) throw new ConnectionClosedError("The HTTP transport is closed");
      state.sink = s;
      // Joining an existing session: its GET stream can open at once.
      if (legacy.sessionId !== undefined) legacy.openStandalone();
    },
    send,
    async close(reason?: Error) {
      if (state.closed) return;
      state.closed = true;
      const why = reason ?? new ConnectionClosedError("The HTTP transport was closed");
      state.lifetime.abort(why);
      for (const controller of state.inflight) controller.abort(why);
      state.inflight.clear();
      // The DELETE runs in the background, bounded by closeTimeout: close() itself settles at once.
      void legacy.terminate();
      state.sink?.onClose(reason);
    },
  };
}
