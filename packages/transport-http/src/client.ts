import {
  ConnectionClosedError,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type SendOptions,
  sleep,
  type Transport,
  TransportError,
  type TransportSink,
  type TransportTraits,
} from "@mcpkit/jsonrpc";
import { encodeHeaderValue, Header, isModernVersion, MetaKey, mcpNameFor } from "@mcpkit/protocol";
import { discardBody, type ResponseBodyReader, readBoundedText, readEventStream } from "./body-reader.js";
import { HttpError, ResponseTooLargeError, SessionExpiredError } from "./errors.js";
import { ACCEPTS_LIGHT_SIGNAL, LightSignal } from "./internal/light-signal.js";
import { networkError } from "./internal/network-error.js";
import { fetchOnOrigin } from "./internal/redirects.js";
import { cutStream } from "./internal/response-cap.js";
import { cursorParser, type SseCursor, settleCursor } from "./internal/sse-read.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./limits.js";
import type { SseEvent } from "./sse-parser.js";

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
   */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * Reads response bodies the fetch's own way (default: `response.body`, a Web stream). With
   * `createNodeFetch` from `./node`, pass `nodeBodyReader` (also from `./node`): SSE replies are then
   * read from the socket's stream directly, and one that arrived whole is parsed in one pass.
   */
  bodyReader?: ResponseBodyReader;
  /**
   * The era to start in. `legacy`: sessions (`Mcp-Session-Id`), the GET stream, resumption,
   * `notifications/cancelled`. `modern` (2026-07-28): `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers, a
   * stream per request. Default: the era of `protocolVersion`, else `legacy`. Afterwards the era follows
   * what comes down with the sends: the `MCP-Protocol-Version` a request's `SendOptions.headers` carry,
   * and `initialize` (legacy).
   */
  era?: "legacy" | "modern";
  /** The protocol version to announce in `MCP-Protocol-Version` until a send or an initialize result names one. */
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

const MAX_ERROR_BODY = 64 * 1024;

interface RequestMessage {
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

function isRequest(message: JsonRpcMessage): message is JsonRpcMessage & RequestMessage {
  return "method" in message && "id" in message;
}

function readErrorObject(value: unknown): { id: unknown; error: JsonRpcErrorObject } | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as { jsonrpc?: unknown; error?: unknown; id?: unknown };
  const error = v.error as Partial<JsonRpcErrorObject> | undefined;
  if (v.jsonrpc !== "2.0" || error === null || typeof error !== "object") return undefined;
  if (typeof error.code !== "number" || !Number.isInteger(error.code) || typeof error.message !== "string") {
    return undefined;
  }
  return { id: v.id, error: error as JsonRpcErrorObject };
}

/** An error body, of which at most 64 KiB is kept (and no more than `maxBytes` is read). */
async function errorText(
  response: Response,
  maxBytes: number,
  reader: ResponseBodyReader | undefined,
): Promise<string> {
  try {
    const text = await readBoundedText(response, maxBytes, reader);
    return text.length > MAX_ERROR_BODY ? text.slice(0, MAX_ERROR_BODY) : text;
  } catch {
    return "";
  }
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
 * Legacy: captures `Mcp-Session-Id` from the initialize response and sends it with
 * `MCP-Protocol-Version` afterwards; opens the GET stream after `notifications/initialized` (405
 * tolerated); resumes broken streams with `Last-Event-ID` after the server's `retry`; DELETEs the
 * session on close. Modern: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` as the
 * request's `SendOptions.headers` give them (`@mcpkit/client` computes them); a header left out is filled
 * in from the message (the version from its `_meta`); `traits.perRequestStream` is true, so aborting a
 * request aborts its fetch, which is the cancellation. Nothing is called back: the era follows the
 * `MCP-Protocol-Version` that comes down with each request (an `initialize` is legacy).
 * @see SPEC.md §3.11, §4.8
 */
export function createStreamableHttpClientTransport(
  options: StreamableHttpClientTransportOptions,
): StreamableHttpClientTransport {
  const url = new URL(options.url);
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const bodyReader = options.bodyReader;
  const discard = (response: Response) => discardBody(response, bodyReader);
  const extraHeaders = options.headers ?? {};
  const reconnect = {
    initialDelay: options.reconnect?.initialDelay ?? 1000,
    maxDelay: options.reconnect?.maxDelay ?? 30_000,
    growFactor: options.reconnect?.growFactor ?? 1.5,
    maxRetries: options.reconnect?.maxRetries ?? 2,
  };
  const onError = options.onError ?? (() => {});
  const closeTimeout = options.closeTimeout ?? 3000;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // Mutable session state, learnt from what comes down with the sends (the client negotiates the era).
  let protocolVersion = options.protocolVersion;
  let era: "legacy" | "modern" =
    options.era ?? (protocolVersion !== undefined && isModernVersion(protocolVersion) ? "modern" : "legacy");
  let sessionId = options.sessionId;
  let sink: TransportSink | undefined;
  let closed = false;
  // Aborted on close: every fetch, read and reconnection delay listens to it.
  const lifetime = new AbortController();
  let standalone: AbortController | undefined;
  const traits: TransportTraits = {
    get perRequestStream() {
      return era === "modern";
    },
    perRequestHeaders: true,
  };

  // The server's `retry` wins (SEP-1699: the client MUST honour it); otherwise grow the delay per failure.
  function backoff(attempt: number, cursor: SseCursor): number {
    if (cursor.retry !== undefined) return cursor.retry;
    return Math.min(reconnect.initialDelay * reconnect.growFactor ** attempt, reconnect.maxDelay);
  }

  type HeaderMap = Record<string, string>;

  /** A fresh map of the extra headers, then `add`. */
  function baseHeaders(add: (headers: HeaderMap) => void): HeaderMap {
    const headers = startHeaders();
    add(headers);
    return headers;
  }

  /** Not a spread: a spread copy that then gets more keys costs a hidden class of its own per request. */
  function startHeaders(): HeaderMap {
    return Object.assign({}, extraHeaders);
  }

  function deliver(value: unknown): void {
    if (closed) return;
    sink?.onMessage(value);
  }

  function expire(): SessionExpiredError {
    const error = new SessionExpiredError(sessionId ?? "");
    sessionId = undefined;
    standalone?.abort(error);
    standalone = undefined;
    options.onSessionExpired?.(error);
    return error;
  }

  /** One HTTP exchange; maps a failed fetch to the right error. Auth and its retries are the fetch's. */
  async function request(
    method: string,
    message: JsonRpcMessage | undefined,
    lastEventId: string,
    body: string | undefined,
    signal: AbortSignal,
    given?: Readonly<HeaderMap>,
  ): Promise<Response> {
    const init: RequestInit = {
      method,
      headers: message !== undefined ? postHeaders(message, given) : getHeaders(lastEventId),
      signal,
      redirect: "manual",
    };
    if (body !== undefined) init.body = body;
    try {
      return await fetchOnOrigin(doFetch, url, init, bodyReader);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      // createNodeFetch cuts a body past its own cap, and a redirect off the origin is refused: both say so.
      if (error instanceof TransportError) throw error;
      throw networkError(method, url, error);
    }
  }

  // Every fetch in flight has its own controller here, aborted on close (no listener pile-up on one signal).
  const inflight = new Set<{ abort(reason?: unknown): void }>();
  // createNodeFetch takes a light signal: no AbortController (costly on Node 20) per request.
  const lightSignals =
    (options.fetch as { [ACCEPTS_LIGHT_SIGNAL]?: unknown } | undefined)?.[ACCEPTS_LIGHT_SIGNAL] === true;

  function linkSignal(
    outer: AbortSignal | undefined,
  ): { signal: AbortSignal; done: () => void } | LightSignal {
    if (lightSignals) {
      // The light signal is its own link: it follows `outer` with itself as the listener (no closures).
      const light = new LightSignal();
      if (lifetime.signal.aborted) light.abort(lifetime.signal.reason);
      else inflight.add(light);
      if (outer) light.follow(outer);
      return light;
    }
    const controller = new AbortController();
    const signal = controller.signal;
    const onOuter = () => controller.abort(outer!.reason);
    if (lifetime.signal.aborted) controller.abort(lifetime.signal.reason);
    else inflight.add(controller);
    if (outer) {
      if (outer.aborted) onOuter();
      else outer.addEventListener("abort", onOuter, { once: true });
    }
    return {
      signal,
      done: () => {
        inflight.delete(controller);
        outer?.removeEventListener("abort", onOuter);
      },
    };
  }

  function postHeaders(message: JsonRpcMessage, given: Readonly<HeaderMap> | undefined): HeaderMap {
    const headers = startHeaders();
    addPostHeaders(headers, message, given);
    return headers;
  }

  // The last `Mcp-Name` value and its encoding: a client calls the same few names again and again.
  let lastName = "";
  let lastEncodedName = "";

  function encodeName(name: string): string {
    if (name !== lastName) {
      lastEncodedName = encodeHeaderValue(name);
      lastName = name;
    }
    return lastEncodedName;
  }

  function addPostHeaders(
    headers: HeaderMap,
    message: JsonRpcMessage,
    given: Readonly<HeaderMap> | undefined,
  ): void {
    headers["content-type"] = "application/json";
    headers.accept = "application/json, text/event-stream";
    if (era === "modern") {
      // What the caller left out is filled in from the message (a bare Peer passes no headers).
      const m = message as { method?: string; params?: unknown };
      if (given?.[Header.ProtocolVersion] === undefined) {
        // The header must equal `_meta`'s version (else 400 -32020), so it is read from the message itself.
        const meta = (m.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
        const metaVersion = meta?.[MetaKey.ProtocolVersion];
        const version = typeof metaVersion === "string" ? metaVersion : protocolVersion;
        if (version !== undefined) headers[Header.ProtocolVersion] = version;
      }
      if (m.method !== undefined && given?.[Header.Method] === undefined) {
        headers[Header.Method] = m.method;
        const name = mcpNameFor(m.method, m.params);
        if (name !== undefined) headers[Header.Name] = encodeName(name);
      }
      if (given !== undefined) Object.assign(headers, given);
    } else {
      if (sessionId !== undefined) headers[Header.SessionId] = sessionId;
      // initialize negotiates the version, so it carries no version header.
      const isInitialize = (message as { method?: string }).method === "initialize";
      if (protocolVersion !== undefined && !isInitialize) headers[Header.ProtocolVersion] = protocolVersion;
      if (given !== undefined) Object.assign(headers, given);
    }
  }

  function getHeaders(lastEventId: string): HeaderMap {
    return baseHeaders((headers) => {
      headers.accept = "text/event-stream";
      if (sessionId !== undefined) headers[Header.SessionId] = sessionId;
      if (protocolVersion !== undefined) headers[Header.ProtocolVersion] = protocolVersion;
      if (lastEventId !== "") headers[Header.LastEventId] = lastEventId;
    });
  }

  /** Delivers one parsed reply value, noting the negotiated version of an initialize result. */
  function deliverReply(value: unknown, request: RequestMessage | undefined): boolean {
    let answered = false;
    if (request && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const v = value as { id?: unknown; method?: unknown; result?: { protocolVersion?: unknown } };
      if (v.method === undefined && v.id === request.id) {
        answered = true;
        if (request.method === "initialize" && typeof v.result?.protocolVersion === "string") {
          protocolVersion = v.result.protocolVersion;
        }
      }
    } else if (request && Array.isArray(value)) {
      answered = value.some((v) => v && typeof v === "object" && !("method" in v) && v.id === request.id);
    }
    deliver(value);
    return answered;
  }

  /** Reads an SSE reply; resolves true once the response to `request` was delivered. */
  async function consume(
    response: Response,
    cursor: SseCursor,
    request: RequestMessage | undefined,
    signal: AbortSignal,
  ): Promise<boolean> {
    let answered = false;
    const onEvent = (event: SseEvent) => {
      if (event.type !== "message" || event.data === "") return;
      let value: unknown;
      try {
        value = JSON.parse(event.data);
      } catch (error) {
        if (!closed) sink?.onInvalid(error as Error);
        return;
      }
      if (deliverReply(value, request)) answered = true;
    };
    const parser = cursorParser(cursor, onEvent, maxResponseBytes);
    try {
      await readEventStream(response, parser, signal, bodyReader);
    } catch (error) {
      throw cutStream(error, url);
    } finally {
      settleCursor(cursor, parser);
    }
    return answered;
  }

  /** Legacy: resumes a POST stream that ended before its response, by GET with Last-Event-ID. */
  async function resume(cursor: SseCursor, request: RequestMessage, signal: AbortSignal): Promise<void> {
    for (let failures = 0; ; ) {
      if (cursor.lastEventId === "" || era !== "legacy") {
        throw new TransportError(
          `The response stream of request ${String(request.id)} ended before its response`,
        );
      }
      if (failures > reconnect.maxRetries) {
        throw new TransportError(`Could not resume the response stream of request ${String(request.id)}`);
      }
      await sleep(backoff(failures, cursor), signal);
      const hadSession = sessionId !== undefined;
      let response: Response;
      try {
        response = await openGet(cursor.lastEventId, signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        failures++;
        onError(error as Error);
        continue;
      }
      if (response.status === 404 && hadSession) {
        discard(response);
        throw expire();
      }
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        discard(response);
        if (response.status === 405)
          throw new TransportError("The server does not support stream resumption (405)");
        failures++;
        continue;
      }
      const before = cursor.lastEventId;
      try {
        if (await consume(response, cursor, request, signal)) return;
      } catch (error) {
        // A broken resumed stream is one more attempt, unless the request was given up or it was cut.
        if (signal.aborted) throw signal.reason;
        if (error instanceof ResponseTooLargeError) throw error;
      }
      // Progress (a new event id) resets the count: only streams that end with nothing new use up retries.
      failures = cursor.lastEventId === before ? failures + 1 : 0;
    }
  }

  function openGet(lastEventId: string, signal: AbortSignal): Promise<Response> {
    return request("GET", undefined, lastEventId, undefined, signal);
  }

  /** Legacy: keeps the standalone GET stream open, resuming after the server's retry. */
  async function runStandalone(controller: AbortController): Promise<void> {
    const signal = controller.signal;
    const cursor: SseCursor = { lastEventId: "", retry: undefined };
    let failures = 0;
    while (!signal.aborted && sessionId !== undefined) {
      let response: Response;
      try {
        response = await openGet(cursor.lastEventId, signal);
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        if (failures > reconnect.maxRetries) throw error;
        await sleep(backoff(failures, cursor), signal);
        continue;
      }
      if (response.status === 405) {
        // The server offers no standalone stream: fine.
        discard(response);
        return;
      }
      if (response.status === 404) {
        discard(response);
        expire();
        return;
      }
      if (!response.ok) {
        discard(response);
        failures++;
        if (failures > reconnect.maxRetries)
          throw new HttpError(response.status, response.statusText, "", undefined, url);
      } else {
        const before = cursor.lastEventId;
        try {
          await consume(response, cursor, undefined, signal);
        } catch (error) {
          if (signal.aborted) return;
          // A cut stream is not reopened: resuming would replay the same event.
          if (error instanceof ResponseTooLargeError) throw error;
        }
        failures = cursor.lastEventId === before ? failures + 1 : 0;
        if (failures > reconnect.maxRetries) {
          throw new TransportError("The GET stream keeps ending without events; giving up");
        }
      }
      await sleep(backoff(failures, cursor), signal);
    }
  }

  function openStandalone(): void {
    if (options.openStandaloneStream === false || era !== "legacy" || closed || sessionId === undefined)
      return;
    if (standalone && !standalone.signal.aborted) return;
    const controller = new AbortController();
    standalone = controller;
    const stop = () => controller.abort(lifetime.signal.reason);
    lifetime.signal.addEventListener("abort", stop, { once: true });
    runStandalone(controller)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) onError(error instanceof Error ? error : new Error(String(error)));
      })
      .finally(() => {
        lifetime.signal.removeEventListener("abort", stop);
        if (standalone === controller) standalone = undefined;
      });
  }

  /**
   * Takes the era and version a request's headers name: the client negotiates, and says so with every
   * request it sends down. `initialize` is legacy by definition (it carries no version header).
   */
  function follow(method: string, given: Readonly<HeaderMap> | undefined): void {
    if (method === "initialize") {
      era = "legacy";
      return;
    }
    const version = given?.[Header.ProtocolVersion];
    if (version === undefined) return;
    protocolVersion = version;
    era = isModernVersion(version) ? "modern" : "legacy";
  }

  async function send(message: JsonRpcMessage, sendOptions?: SendOptions): Promise<void> {
    if (closed) throw new ConnectionClosedError("The HTTP transport is closed");
    if (!sink) throw new Error("StreamableHttpClientTransport.send() before start()");
    const req = isRequest(message) ? message : undefined;
    // Only a request's own abort cancels its fetch; notifications and responses run to completion.
    const link = linkSignal(req ? sendOptions?.signal : undefined);
    const signal = link instanceof LightSignal ? (link as unknown as AbortSignal) : link.signal;
    try {
      if (req !== undefined) follow(req.method, sendOptions?.headers);
      const sentSession = era === "legacy" ? sessionId : undefined;
      const body = JSON.stringify(message);
      const response = await request("POST", message, "", body, signal, sendOptions?.headers);
      if (era === "legacy" && req?.method === "initialize") {
        const issued = response.headers.get(Header.SessionId);
        if (issued) sessionId = issued;
      }
      // 404 on a request that carried a session id means the session is gone (SPEC.md §4.8), whatever the body.
      if (response.status === 404 && sentSession !== undefined) {
        discard(response);
        throw expire();
      }
      if (!response.ok) {
        const text = await errorText(response, maxResponseBytes, bodyReader);
        let parsed: ReturnType<typeof readErrorObject>;
        try {
          parsed = readErrorObject(JSON.parse(text));
        } catch {
          parsed = undefined;
        }
        // A 404 whose error answers no request (`id: null`) is a wrong URL, not an answer: saying so with
        // the URL beats relaying the server's generic "Not found (-32600)".
        if (req && parsed && (response.status !== 404 || parsed.id === req.id)) {
          // The server answered the request with a JSON-RPC error: deliver it as the request's answer.
          deliver({ jsonrpc: "2.0", id: req.id, error: parsed.error });
          return;
        }
        throw new HttpError(response.status, response.statusText, text, parsed?.error, url);
      }
      if (!req) {
        discard(response);
        if ((message as { method?: string }).method === "notifications/initialized") openStandalone();
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
          answered = await consume(response, cursor, req, signal);
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          if (error instanceof ResponseTooLargeError) throw error;
          if (era !== "legacy") {
            throw new TransportError(`The response stream of request ${String(req.id)} broke`, {
              cause: error,
            });
          }
        }
        if (!answered) await resume(cursor, req, signal);
        return;
      }
      if (contentType.includes("application/json")) {
        const text = await readBoundedText(response, maxResponseBytes, bodyReader, url);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          sink.onInvalid(error as Error);
          return;
        }
        deliverReply(value, req);
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
      if (link instanceof LightSignal) {
        inflight.delete(link);
        link.unfollow();
      } else link.done();
    }
  }

  async function terminateSession(): Promise<void> {
    const id = sessionId;
    if (id === undefined || era !== "legacy") return;
    sessionId = undefined;
    standalone?.abort(new ConnectionClosedError("Session terminated"));
    standalone = undefined;
    const signal = AbortSignal.timeout(closeTimeout);
    try {
      const headers = baseHeaders((h) => {
        h[Header.SessionId] = id;
        if (protocolVersion !== undefined) h[Header.ProtocolVersion] = protocolVersion;
      });
      const response = await fetchOnOrigin(doFetch, url, { method: "DELETE", headers, signal }, bodyReader);
      discard(response);
    } catch (error) {
      onError(new TransportError(`DELETE of session ${id} failed`, { cause: error }));
    }
  }

  return {
    traits,
    url: url.href,
    get sessionId() {
      return sessionId;
    },
    get era() {
      return era;
    },
    get protocolVersion() {
      return protocolVersion;
    },
    terminateSession,
    async start(s: TransportSink) {
      if (sink) throw new Error("StreamableHttpClientTransport.start() was called twice");
      if (closed) throw new ConnectionClosedError("The HTTP transport is closed");
      sink = s;
      // Joining an existing session: its GET stream can open at once.
      if (sessionId !== undefined) openStandalone();
    },
    send,
    async close(reason?: Error) {
      if (closed) return;
      closed = true;
      const why = reason ?? new ConnectionClosedError("The HTTP transport was closed");
      lifetime.abort(why);
      for (const controller of inflight) controller.abort(why);
      inflight.clear();
      // The DELETE runs in the background, bounded by closeTimeout: close() itself settles at once.
      void terminateSession();
      sink?.onClose(reason);
    },
  };
}
