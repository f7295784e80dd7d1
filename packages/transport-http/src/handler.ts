import { classifyValue, type JsonRpcId, type MessageInfo, type Transport } from "@mcpkit/jsonrpc";
import {
  DEFAULT_NEGOTIATED_HTTP_VERSION,
  decodeHeaderValue,
  Header,
  isLegacyVersion,
  isModernVersion,
  MetaKey,
  mcpNameFor,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@mcpkit/protocol";
import { createInMemoryEventStore, type EventStore } from "./event-store.js";
import { preflightReply, withCors } from "./internal/cors.js";
import {
  accepts,
  emptyReply,
  errorReply,
  hostAllowed,
  isJsonContentType,
  originAllowed,
  Reply,
  randomId,
} from "./internal/http-util.js";
import { handlerCores, type InboundRequest, TOO_LARGE } from "./internal/inbound.js";
import { Session, type SessionSettings } from "./internal/legacy.js";
import { ModernExchange, OneShotTransport } from "./internal/modern.js";
import { SharedSessionHandle } from "./internal/shared-session-handle.js";
import { SSE_HEADERS, type SseBufferLimit, SseConnection } from "./internal/sse-connection.js";
import {
  DEFAULT_HANDSHAKE_TIMEOUT,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION,
  DEFAULT_MAX_SSE_BUFFER_BYTES,
  type HttpLimitEvent,
  type HttpLimitName,
  logLimit,
  RETRY_AFTER_SECONDS,
} from "./limits.js";
import type { SessionRecord, SessionSignal, SessionStore } from "./session-store.js";

/** 16 MiB: the default cap on a POST body. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** What the handler tells the app about a new connection (legacy session) or request (modern). */
export interface HttpConnectionInfo {
  /** `legacy`: a session's transport, alive until DELETE or expiry. `modern`: one request's one-shot transport. */
  era: "legacy" | "modern";
  /** The legacy session id (issued on the initialize response). */
  sessionId?: string;
  /**
   * Legacy, with a `sessionStore`: true when this instance takes up a session another instance opened
   * (its transport's `sharedSession` holds the state to restore; the session is initialized already).
   */
  adopted?: boolean;
  /** The HTTP request that opened the session or carries the request. */
  request: Request;
}

/**
 * The `MessageInfo` of every inbound message the handler's transports deliver (the peer passes it to
 * handlers as `ctx.info`). Served by the node adapter, `headers` and `httpRequest` are getters (the
 * `Request` is built when first read): read them from the object rather than spreading it.
 */
export interface HttpMessageInfo extends MessageInfo {
  /** The request's headers (names are case-insensitive; `Mcp-Param-*` are left for the app to check). */
  headers: Headers;
  /** The HTTP request. */
  httpRequest: Request;
  /** The protocol version of the request: its `MCP-Protocol-Version` header (legacy default 2025-03-26). */
  protocolVersion: string;
  /** Legacy: the session id. */
  sessionId?: string;
  /** Verified token claims, when an auth verifier is configured (not set by this package yet). */
  authInfo?: unknown;
  /**
   * Legacy requests: closes the request's SSE connection now (after its priming event), so the client
   * reconnects with `Last-Event-ID` after the `retry` interval and receives the rest there (SEP-1699
   * polling). The request goes on; nothing is lost.
   */
  closeSseStream?: () => void;
}

/** Options of {@link createStreamableHttpHandler}. */
export interface StreamableHttpHandlerOptions {
  /**
   * Receives a transport for every new legacy session (an `initialize` POST without a session id) and
   * for every modern request (a one-shot transport that carries exactly that message and closes itself
   * once the response was sent or the client went away). Typically `(t) => server.connect(t)`.
   * A throw answers the request with a generic 500.
   */
  connect(transport: Transport, info: HttpConnectionInfo): void | Promise<void>;
  /** Which eras to serve. Default `"both"`. */
  eras?: "both" | "modern" | "legacy";
  /** Protocol versions accepted (default: every version mcpkit supports). */
  supportedVersions?: readonly string[];
  /** Origins allowed besides loopback ones (`http://localhost:*`, `127.0.0.1`, `[::1]`); `"*"` allows any. */
  allowedOrigins?: readonly string[];
  /**
   * Lets MCP clients in browser pages on other origins read the answers (CORS). Off by default. When on, a
   * request whose `Origin` passed `allowedOrigins` gets `Access-Control-Allow-Origin` (that origin, never
   * `*`) and `Access-Control-Expose-Headers: Mcp-Session-Id, WWW-Authenticate`, and a preflight `OPTIONS`
   * is answered 204, allowing GET/POST/DELETE and the MCP headers (`MCP-Protocol-Version`, `Mcp-Method`,
   * `Mcp-Name`, `Mcp-Param-*`, `Mcp-Session-Id`, `Last-Event-ID`, `Authorization`, `Content-Type`). It opens
   * nothing by itself: list the page's origin in `allowedOrigins` too.
   */
  cors?: boolean;
  /**
   * Host header values allowed (`name` for any port, or `name:port`); unset means no Host check. A
   * server bound to loopback should pass the loopback names (the node `listen()` does).
   */
  allowedHosts?: readonly string[];
  /** Cap on a POST body in bytes; larger ones get 413 before parsing. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Where legacy SSE events are kept for resumption. Default: an in-memory store of 1000 events. */
  eventStore?: EventStore;
  /** A legacy session without requests or open streams for this long ends. Default 30 min; `Infinity` never. */
  sessionIdleTimeout?: number;
  /**
   * A legacy session whose client sends nothing after its `initialize` POST (no `notifications/initialized`,
   * no request, no GET) for this long ends (its connection closes, later requests get 404) and `onLimit`
   * is told (`handshakeTimeout`). Counted from the `initialize` POST. Default 30 s
   * (`DEFAULT_HANDSHAKE_TIMEOUT`); `Infinity` or 0 never. Sessions shared through a `sessionStore` are
   * bounded by their record's TTL instead (the client's next message may reach another instance).
   */
  handshakeTimeout?: number;
  /**
   * Shares legacy sessions with the other instances of the server behind a load balancer without sticky
   * routing (e.g. `@mcpkit/redis`): any instance serves any request of a session. Each request of a session
   * then costs one store round trip (its record is read and its idle TTL, `sessionIdleTimeout`, restarted);
   * the instance that gets a request for a session it does not serve yet takes it up (`connect` with
   * `info.adopted`); answers to server-to-client requests and cancels are routed to the instance that
   * waits for them; DELETE on any instance ends the session on all. Modern requests never touch it.
   * Use a shared `eventStore` too, so streams resume on any instance. Default: sessions live in this process.
   */
  sessionStore?: SessionStore;
  /** Most legacy sessions at once; further `initialize` POSTs get 503 with `Retry-After`. Default 10 000. */
  maxSessions?: number;
  /**
   * Most requests in flight at once on this handler, both eras (a request is in flight until its
   * response was sent or its client left); further ones get 503 with `Retry-After: 1`. Default 1000.
   */
  maxConcurrentRequests?: number;
  /** Most requests in flight at once in one legacy session; further ones get 429 with `Retry-After: 1`. Default 100. */
  maxConcurrentRequestsPerSession?: number;
  /**
   * Most bytes an SSE stream may hold that its client has not read yet; a stream that passes it is closed
   * (a legacy stream's events stay in the event store, so the client can resume). Default 4 MiB.
   */
  maxSseBufferBytes?: number;
  /**
   * Told of every request refused or stream closed by a limit (413, 503, 429, an overflowing SSE stream).
   * Default: one `console.warn` line naming the limit.
   */
  onLimit?: (event: HttpLimitEvent) => void;
  /** Answer with a JSON body whenever the response is the only message (else SSE). Default false. */
  preferJson?: boolean;
  /** The `retry` (ms) sent in priming events of legacy streams. Default 1000. */
  retryInterval?: number;
  /** Interval (ms) of `: keep-alive` comments on open SSE streams; 0 disables. Default 15 000. */
  keepAliveInterval?: number;
  /** Internal failures (never sent to the peer): a throwing `connect`, an event store error. */
  onError?: (error: Error) => void;
  /**
   * Authenticates every request (POST, GET, DELETE) before anything else is read. A `Response` (a 401 or
   * 403 challenge) is sent as it is; any other value is the verified identity, handed to the app as
   * `info.authInfo` of each message of that request. `@mcpkit/auth`'s `createProtectedResource(…)
   * .authenticate` has this shape. The token itself is never passed on.
   */
  authenticate?: (request: Request) => unknown | Response | Promise<unknown | Response>;
}

/** A Web-standard Streamable HTTP endpoint: hand it every request for the MCP path. */
export interface StreamableHttpHandler {
  /** Answers one HTTP request. Never rejects: internal failures become a generic 500. */
  fetch(request: Request): Promise<Response>;
  /** Ends every session and open stream; later requests get 503. Idempotent. */
  close(): Promise<void>;
  /** The body cap in bytes (adapters use it to stop reading early). */
  readonly maxBodyBytes: number;
  /** Legacy sessions alive now. */
  readonly sessionCount: number;
}

type Era = "legacy" | "modern";

class Rejection {
  constructor(readonly response: Reply) {}
}

function reject(
  status: number,
  code: number,
  message: string,
  id?: JsonRpcId | null,
  data?: unknown,
): Rejection {
  return new Rejection(errorReply(status, code, message, id, data));
}

const ALLOW = { allow: "GET, POST, DELETE" };

/**
 * The info of a message that came through the node adapter: `headers` and `httpRequest` are getters
 * (on the prototype, so creating one per message stays cheap), and the adapter builds a `Request` only
 * when the app reads one.
 */
class LazyMessageInfo implements HttpMessageInfo {
  [key: string]: unknown;
  declare signal?: AbortSignal;
  declare sessionId?: string;
  declare authInfo?: unknown;
  declare closeSseStream?: () => void;
  readonly #req: InboundRequest;

  constructor(
    req: InboundRequest,
    readonly protocolVersion: string,
  ) {
    this.#req = req;
  }

  get headers(): Headers {
    return this.#req.headers;
  }

  get httpRequest(): Request {
    return this.#req.request;
  }
}

/** See {@link LazyMessageInfo}: `request` is built when read. */
class LazyConnectionInfo implements HttpConnectionInfo {
  declare sessionId?: string;
  declare adopted?: boolean;
  readonly #req: InboundRequest;

  constructor(
    req: InboundRequest,
    readonly era: "legacy" | "modern",
  ) {
    this.#req = req;
  }

  get request(): Request {
    return this.#req.request;
  }
}

/** The info of each message of one request (plain data when the request is a Web `Request` already). */
function messageInfo(
  req: InboundRequest,
  protocolVersion: string,
  sessionId: string | undefined,
  signal: AbortSignal | undefined,
): HttpMessageInfo {
  const info: HttpMessageInfo =
    req instanceof WebInbound
      ? { headers: req.request.headers, httpRequest: req.request, protocolVersion }
      : new LazyMessageInfo(req, protocolVersion);
  if (signal !== undefined) info.signal = signal;
  if (sessionId !== undefined) info.sessionId = sessionId;
  if (req.identity !== undefined) info.authInfo = req.identity.value;
  return info;
}

function connectionInfo(
  req: InboundRequest,
  era: "legacy" | "modern",
  sessionId: string | undefined,
): HttpConnectionInfo {
  const info: HttpConnectionInfo =
    req instanceof WebInbound ? { era, request: req.request } : new LazyConnectionInfo(req, era);
  if (sessionId !== undefined) info.sessionId = sessionId;
  return info;
}

/**
 * The info of a message another instance received and routed here (a shared session): there is no HTTP
 * request on this instance, so the headers are empty and `httpRequest` is a placeholder.
 */
class RoutedMessageInfo implements HttpMessageInfo {
  [key: string]: unknown;
  readonly headers = new Headers();

  constructor(
    readonly protocolVersion: string,
    readonly sessionId: string,
  ) {}

  get httpRequest(): Request {
    return new Request("http://routed.invalid/", { method: "POST", headers: this.headers });
  }
}

/** The instance a server-to-client request id names (`<instanceId>~<n>`, see `PeerOptions.requestIdPrefix`). */
function instanceOf(id: JsonRpcId | null): string | undefined {
  if (typeof id !== "string") return undefined;
  const end = id.indexOf("~");
  return end > 0 ? id.slice(0, end) : undefined;
}

/** The Web entry point's view of a `Request`. */
class WebInbound implements InboundRequest {
  identity?: { value: unknown };

  constructor(readonly request: Request) {}

  get method(): string {
    return this.request.method;
  }

  get headers(): Headers {
    return this.request.headers;
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  host(): string {
    return this.request.headers.get("host") ?? new URL(this.request.url).host;
  }

  async readBody(maxBytes: number): Promise<string | typeof TOO_LARGE> {
    const request = this.request;
    const length = request.headers.get("content-length");
    if (length !== null && Number(length) > maxBytes) return TOO_LARGE;
    if (request.body === null) return "";
    if (length !== null) {
      // A declared length within the cap: the runtime reads it in one go, cheaper than chunk by chunk.
      const text = await request.text();
      // The header could lie about a multi-byte body; count what arrived.
      return text.length > maxBytes || new TextEncoder().encode(text).length > maxBytes ? TOO_LARGE : text;
    }
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return TOO_LARGE;
      }
      chunks.push(value);
    }
    const decoder = new TextDecoder();
    let text = "";
    for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  }

  /** The adapter aborts `request.signal` when the client disconnects. */
  onGone(fn: () => void): void {
    const signal = this.request.signal;
    if (signal.aborted) fn();
    else signal.addEventListener("abort", fn, { once: true });
  }
}

/**
 * Creates a Streamable HTTP handler serving both protocol eras on one endpoint, on any runtime with
 * `Request`/`Response`/`ReadableStream`. POST carries one JSON-RPC message; GET opens a legacy
 * session's standalone stream (405 when only the modern era is served); DELETE ends a legacy session.
 *
 * Checks, each answered with its status and a JSON-RPC error body (never exception text): a foreign
 * `Origin` or disallowed `Host` → 403; `Accept` without both JSON and SSE → 406; non-JSON
 * `Content-Type` → 415; body over `maxBodyBytes` → 413 (-32600, before parsing); bad JSON → 400
 * (-32700). Legacy: missing session id → 400, unknown/ended session → 404, unsupported version → 400.
 * Modern: missing/unsupported `MCP-Protocol-Version` → 400 -32022 with `{ supported, requested }`,
 * missing `_meta` protocol version → 400 -32602, header ≠ `_meta` or `Mcp-Method`/`Mcp-Name` ≠ body
 * → 400 -32020; the app's JSON error responses are mapped to statuses (-32601 → 404, …).
 * @see SPEC.md §3.11 (2026-07-28) and §4.8 (legacy)
 */
const NO_SESSION = "Bad Request: Mcp-Session-Id header is required (send initialize first to open a session)";
// On a dual-era endpoint a request with neither era's markers could be meant for either: say what each needs.
const NEITHER_ERA =
  "Bad Request: this request belongs to no era: a 2026-07-28 request needs the MCP-Protocol-Version header " +
  `and params._meta["${MetaKey.ProtocolVersion}"]; a 2025-11-25 or older one needs an Mcp-Session-Id ` +
  "header from initialize";

function versionMismatch(header: string, metaVersion: string, id: JsonRpcId | undefined): Rejection {
  return reject(
    400,
    -32020,
    `Header mismatch: MCP-Protocol-Version ${header} differs from _meta protocolVersion ${metaVersion}`,
    id,
  );
}

export function createStreamableHttpHandler(options: StreamableHttpHandlerOptions): StreamableHttpHandler {
  const eras = options.eras ?? "both";
  const serveLegacy = eras !== "modern";
  const serveModern = eras !== "legacy";
  const supported = (options.supportedVersions ?? SUPPORTED_PROTOCOL_VERSIONS).filter(
    (v) => (serveModern && isModernVersion(v)) || (serveLegacy && isLegacyVersion(v)),
  );
  const supportedModern: readonly string[] = supported.filter((v) => isModernVersion(v));
  const supportedLegacy: readonly string[] = supported.filter((v) => isLegacyVersion(v));
  const allowedOrigins = options.allowedOrigins ?? [];
  const cors = options.cors === true;
  const allowedHosts = options.allowedHosts;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? 10_000;
  const maxConcurrent = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
  const maxPerSession =
    options.maxConcurrentRequestsPerSession ?? DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION;
  const maxSseBuffer = options.maxSseBufferBytes ?? DEFAULT_MAX_SSE_BUFFER_BYTES;
  const onLimit = options.onLimit ?? logLimit;
  const preferJson = options.preferJson ?? false;
  const keepAliveInterval = options.keepAliveInterval ?? 15_000;
  const onError = options.onError ?? (() => {});
  const sessions = new Map<string, Session>();
  const oneShots = new Set<OneShotTransport>();
  let closed = false;
  const cluster = serveLegacy ? options.sessionStore : undefined;
  const idleTimeout = options.sessionIdleTimeout ?? 30 * 60_000;
  const handshakeTimeout = options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT;
  // The record's TTL: the idle timeout, or a day for sessions that never idle out in one process.
  const recordTtl = Number.isFinite(idleTimeout) && idleTimeout > 0 ? idleTimeout : 86_400_000;

  /** Tells `onLimit` (a throwing `onLimit` must not break the reply). */
  function limitReached(
    limit: HttpLimitName,
    value: number,
    status: number | undefined,
    message: string,
    sessionId?: string,
  ): void {
    const event: HttpLimitEvent = { limit, value, message };
    if (status !== undefined) event.status = status;
    if (sessionId !== undefined) event.sessionId = sessionId;
    try {
      onLimit(event);
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
    }
  }
  const retryAfter = { "retry-after": String(RETRY_AFTER_SECONDS) };
  const sseLimit: SseBufferLimit | undefined =
    maxSseBuffer > 0 && Number.isFinite(maxSseBuffer)
      ? {
          maxBytes: maxSseBuffer,
          onOverflow: (held) => {
            const event: HttpLimitEvent = {
              limit: "maxSseBufferBytes",
              value: maxSseBuffer,
              message: `an SSE stream was closed: its client left ${held} bytes unread`,
            };
            try {
              onLimit(event);
            } catch (error) {
              onError(error instanceof Error ? error : new Error(String(error)));
            }
          },
        }
      : undefined;
  const load = { exchanges: 0 };

  /** The 503 for a handler at `maxConcurrentRequests`, or undefined when one more request may run. */
  function overloaded(id: JsonRpcId | undefined): Reply | undefined {
    if (load.exchanges + oneShots.size < maxConcurrent) return undefined;
    limitReached("maxConcurrentRequests", maxConcurrent, 503, "a request was refused with 503");
    return errorReply(
      503,
      -32600,
      `Service unavailable: more than ${maxConcurrent} requests in flight; retry later`,
      id,
      undefined,
      retryAfter,
    );
  }

  const settings: SessionSettings = {
    store: options.eventStore ?? createInMemoryEventStore(),
    retryInterval: options.retryInterval ?? 1000,
    keepAliveInterval,
    idleTimeout,
    onError,
    onEnd: (session) => {
      if (sessions.get(session.id) === session) sessions.delete(session.id);
    },
    cluster,
    sseLimit,
    load,
  };
  cluster?.listen(onSignal);

  // DNS rebinding: a browser page on another origin can reach a loopback server; its Origin gives it away,
  // and for a server bound to loopback a foreign Host does too (the conformance suite sends both).
  function checkOrigin(req: InboundRequest): Rejection | undefined {
    const origin = req.header("origin");
    if (origin !== null && !originAllowed(origin, allowedOrigins)) {
      return reject(403, -32600, "Forbidden: origin not allowed");
    }
    if (allowedHosts !== undefined) {
      const host = req.host();
      if (!hostAllowed(host, allowedHosts)) return reject(403, -32600, "Forbidden: host not allowed");
    }
    return undefined;
  }

  function legacyVersion(req: InboundRequest): string | Rejection {
    const header = req.header(Header.ProtocolVersion)?.trim();
    if (header === undefined || header === "") return DEFAULT_NEGOTIATED_HTTP_VERSION;
    if (!supportedLegacy.includes(header)) {
      return reject(400, -32600, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(header)}`);
    }
    return header;
  }

  function findSession(req: InboundRequest, missing = NO_SESSION): Session | Rejection {
    const sessionId = req.header(Header.SessionId);
    if (sessionId === null || sessionId === "") return reject(400, -32600, missing);
    const session = sessions.get(sessionId);
    if (!session || session.ended) return reject(404, -32600, "Session not found");
    return session;
  }

  async function handlePost(req: InboundRequest): Promise<Reply> {
    const accept = req.header("accept");
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
      return errorReply(
        406,
        -32600,
        "Not Acceptable: Accept must allow application/json and text/event-stream",
      );
    }
    if (!isJsonContentType(req.header("content-type"))) {
      return errorReply(415, -32600, "Unsupported Media Type: Content-Type must be application/json");
    }
    // The node adapter has the body already: no extra turn for it.
    const read = req.readBody(maxBodyBytes);
    const body = read instanceof Promise ? await read : read;
    if (body === TOO_LARGE) {
      limitReached("maxBodyBytes", maxBodyBytes, 413, "a POST body was refused with 413");
      return errorReply(413, -32600, `Request body exceeds ${maxBodyBytes} bytes`);
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return errorReply(400, -32700, "Parse error");
    }
    if (Array.isArray(value)) {
      // Batches existed only in 2025-03-26 and were removed in 2025-06-18.
      return errorReply(400, -32600, "Invalid Request: batches are not supported");
    }
    const parsed = classifyValue(value)[0]!;
    if (parsed.kind === "invalid") return errorReply(400, parsed.error.code, parsed.error.message, parsed.id);
    const era = chooseEra(req, value as Record<string, unknown>);
    if (era instanceof Rejection) return era.response;
    return era === "modern" ? handleModernPost(req, parsed) : handleLegacyPost(req, parsed);
  }

  function chooseEra(req: InboundRequest, message: Record<string, unknown>): Era | Rejection {
    if (!serveLegacy) return "modern";
    if (!serveModern) return "legacy";
    if (req.header(Header.SessionId) !== null) return "legacy";
    // Modern markers win even for `initialize`: a 2026-07-28 request for it must get 404 -32601.
    const header = req.header(Header.ProtocolVersion)?.trim();
    if (header !== undefined && header !== "" && !isLegacyVersion(header)) return "modern";
    const params = message.params as { _meta?: Record<string, unknown> } | undefined;
    if (params?._meta?.[MetaKey.ProtocolVersion] !== undefined) return "modern";
    // Otherwise legacy: `initialize` opens a session, anything else gets 400 (session required).
    return "legacy";
  }

  async function handleLegacyPost(
    req: InboundRequest,
    parsed: Exclude<ReturnType<typeof classifyValue>[number], { kind: "invalid" }>,
  ): Promise<Reply> {
    if (
      parsed.kind === "request" &&
      parsed.message.method === "initialize" &&
      !(req.header(Header.SessionId) !== null)
    ) {
      return initialize(req, parsed.message as { id: JsonRpcId; method: string; params?: unknown });
    }
    if (cluster) return handleSharedPost(req, parsed, cluster);
    const session = findSession(req, serveModern ? NEITHER_ERA : NO_SESSION);
    if (session instanceof Rejection) return session.response;
    const version = legacyVersion(req);
    if (version instanceof Rejection) return version.response;
    return serveInSession(req, parsed, session, version);
  }

  /** A legacy POST of a session that is served here: the message goes to the app. */
  function serveInSession(
    req: InboundRequest,
    parsed: Exclude<ReturnType<typeof classifyValue>[number], { kind: "invalid" }>,
    session: Session,
    version: string,
  ): Reply | Promise<Reply> {
    const message = parsed.message;
    session.protocolVersion = version;
    session.touch();
    session.handshakeDone();
    const info = messageInfo(req, version, session.id, undefined);
    if (parsed.kind !== "request") {
      if (parsed.kind === "notification" && parsed.message.method === "notifications/cancelled") {
        // The app answers a cancelled request with nothing: its stream ends here.
        const requestId = (parsed.message.params as { requestId?: JsonRpcId } | undefined)?.requestId;
        if (requestId !== undefined) queueMicrotask(() => session.exchange(requestId)?.end());
      }
      session.transport.deliver(message, info);
      return emptyReply(202);
    }
    const id = parsed.message.id;
    if (session.openExchanges >= maxPerSession) {
      limitReached(
        "maxConcurrentRequestsPerSession",
        maxPerSession,
        429,
        "a request was refused with 429",
        session.id,
      );
      return errorReply(
        429,
        -32600,
        `Too many requests: more than ${maxPerSession} in flight in this session; retry later`,
        id,
        undefined,
        retryAfter,
      );
    }
    const busy = overloaded(id);
    if (busy) return busy;
    // Without preferJson the SSE stream opens at once, so the priming event reaches the client before
    // anything can go wrong and the request is resumable from its first moment.
    const exchange = session.openExchange(id, {
      lazy: preferJson,
      preferJson,
      priming: version >= "2025-11-25",
      initialize: false,
    });
    info.closeSseStream = () => exchange.closeConnection();
    req.onGone(() => exchange.clientGone());
    session.transport.deliver(message, info);
    return exchange.response;
  }

  /**
   * A legacy POST with a shared session: one round trip reads the record (404 once it ended anywhere).
   * An answer to a request another instance sent goes there, a cancel to every instance; anything else
   * is served here, by this instance's replica of the session (taken up now if there is none).
   */
  async function handleSharedPost(
    req: InboundRequest,
    parsed: Exclude<ReturnType<typeof classifyValue>[number], { kind: "invalid" }>,
    store: SessionStore,
  ): Promise<Reply> {
    const found = await sharedRecord(req, store, serveModern ? NEITHER_ERA : NO_SESSION);
    if (found instanceof Rejection) return found.response;
    const version = legacyVersion(req);
    if (version instanceof Rejection) return version.response;
    const sessionId = found[0];
    if (parsed.kind === "success" || parsed.kind === "error") {
      const owner = instanceOf(parsed.message.id);
      if (owner !== undefined && owner !== store.instanceId) {
        // Nobody waits for it any more when that instance is gone: dropped, as a late answer is.
        await store.sendTo(owner, { kind: "inbound", sessionId, message: parsed.message });
        return emptyReply(202);
      }
    } else if (parsed.kind === "notification" && parsed.message.method === "notifications/cancelled") {
      // The request may run on any instance: each one serving the session looks for it.
      await store.broadcast({ kind: "inbound", sessionId, message: parsed.message });
      return emptyReply(202);
    }
    const session = await replica(req, store, sessionId, found[1]);
    if (session instanceof Rejection) return session.response;
    return serveInSession(req, parsed, session, version);
  }

  /** Shared sessions: the record of the request's session, its TTL restarted; 404 once it ended anywhere. */
  async function sharedRecord(
    req: InboundRequest,
    store: SessionStore,
    missing = NO_SESSION,
  ): Promise<[string, SessionRecord] | Rejection> {
    const sessionId = req.header(Header.SessionId);
    if (sessionId === null || sessionId === "") return reject(400, -32600, missing);
    const record = await store.touch(sessionId, recordTtl);
    if (record === undefined) {
      // Ended (or expired) elsewhere before this replica heard of it.
      sessions.get(sessionId)?.terminate();
      return reject(404, -32600, "Session not found");
    }
    return [sessionId, record];
  }

  /**
   * This instance's replica of a shared session, refreshed from `record`; made (and connected to the app
   * with `info.adopted`) when there is none. Requests that arrive while the app connects are kept by the
   * transport until it starts.
   */
  async function replica(
    req: InboundRequest,
    store: SessionStore,
    sessionId: string,
    record: SessionRecord,
  ): Promise<Session | Rejection> {
    const existing = sessions.get(sessionId);
    if (existing !== undefined && !existing.ended) {
      existing.shared!.refresh(record);
      return existing;
    }
    if (sessions.size >= maxSessions) return tooManySessions(undefined);
    const shared = new SharedSessionHandle(sessionId, store, `${store.instanceId}~`);
    shared.refresh(record);
    const session = new Session(sessionId, settings, record.protocolVersion, shared);
    sessions.set(sessionId, session);
    const info = connectionInfo(req, "legacy", sessionId);
    info.adopted = true;
    try {
      await options.connect(session.transport, info);
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
      session.release();
      return reject(500, -32603, "Internal error");
    }
    return session;
  }

  /** Shared sessions: what another instance (or the store) tells this one. */
  function onSignal(signal: SessionSignal): void {
    const session = sessions.get(signal.sessionId);
    if (session === undefined || session.ended) return;
    switch (signal.kind) {
      case "inbound": {
        const message = signal.message;
        if ("method" in message && message.method === "notifications/cancelled") {
          // As for a cancel POSTed here: the app answers a cancelled request with nothing.
          const requestId = (message.params as { requestId?: JsonRpcId } | undefined)?.requestId;
          if (requestId !== undefined) queueMicrotask(() => session.exchange(requestId)?.end());
        }
        session.transport.deliver(message, new RoutedMessageInfo(session.protocolVersion, session.id));
        return;
      }
      case "outbound":
        session.standalone.send(signal.message, false);
        return;
      case "changed":
        // Applied at once, so a fan-out right behind it sees it; a missed revision reads the record.
        if (session.shared!.apply(signal.revision, signal.changes)) return;
        cluster!.touch(session.id, recordTtl).then((record) => {
          if (record === undefined) session.terminate();
          else session.shared!.refresh(record);
        }, onError);
        return;
      case "ended":
        session.terminate();
        return;
    }
  }

  function tooManySessions(id: JsonRpcId | undefined): Rejection {
    limitReached("maxSessions", maxSessions, 503, "an initialize was refused with 503");
    return new Rejection(
      errorReply(503, -32600, "Too many sessions; retry later", id, undefined, {
        "retry-after": String(10 * RETRY_AFTER_SECONDS),
      }),
    );
  }

  async function initialize(
    req: InboundRequest,
    message: { id: JsonRpcId; method: string; params?: unknown },
  ): Promise<Reply> {
    const header = req.header(Header.ProtocolVersion)?.trim();
    if (header !== undefined && header !== "" && !supported.includes(header)) {
      return errorReply(
        400,
        -32600,
        `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(header)}`,
        message.id,
      );
    }
    if (sessions.size >= maxSessions) return tooManySessions(message.id).response;
    const busy = overloaded(message.id);
    if (busy) return busy;
    const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    const version = typeof requested === "string" ? requested : DEFAULT_NEGOTIATED_HTTP_VERSION;
    // The session exists before the app answers, so the app's connect() can see its id; it is dropped again
    // when initialize fails (onInitializeFailed below).
    const id = randomId();
    let shared: SharedSessionHandle | undefined;
    if (cluster) {
      // The record first: the client may send its next request to any instance as soon as it has the id.
      await cluster.create(id, version, recordTtl);
      shared = new SharedSessionHandle(id, cluster, `${cluster.instanceId}~`);
      shared.created();
    }
    const session = new Session(id, settings, version, shared);
    sessions.set(session.id, session);
    if (!cluster) {
      session.awaitHandshake(handshakeTimeout, () =>
        limitReached(
          "handshakeTimeout",
          handshakeTimeout,
          undefined,
          `a session was ended: its client sent nothing after initialize for ${handshakeTimeout} ms`,
          session.id,
        ),
      );
    }
    try {
      await options.connect(session.transport, connectionInfo(req, "legacy", session.id));
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
      session.terminate();
      return errorReply(500, -32603, "Internal error", message.id);
    }
    // Lazy: the session id header may only go out on a successful initialize answer.
    const exchange = session.openExchange(message.id, {
      lazy: true,
      preferJson,
      priming: version >= "2025-11-25",
      initialize: true,
    });
    exchange.headers = { [Header.SessionId]: session.id };
    exchange.onInitializeFailed = () =>
      queueMicrotask(() => {
        session.terminate();
        cluster?.end(session.id).catch(onError);
      });
    req.onGone(() => exchange.clientGone());
    const info = messageInfo(req, version, session.id, undefined);
    info.closeSseStream = () => exchange.closeConnection();
    session.transport.deliver(message, info);
    return exchange.response;
  }

  function checkModern(
    req: InboundRequest,
    parsed: Exclude<ReturnType<typeof classifyValue>[number], { kind: "invalid" }>,
  ): string | Rejection {
    const message = parsed.message as { id?: JsonRpcId; method?: string; params?: unknown };
    const id = parsed.kind === "request" ? message.id : undefined;
    const header = req.header(Header.ProtocolVersion)?.trim();
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const metaVersion = meta?.[MetaKey.ProtocolVersion];
    if (header === undefined || header === "") {
      if (metaVersion === undefined) {
        // A legacy request (initialize) at a modern-only server: name the versions we speak.
        const asked = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        return reject(400, -32022, "Unsupported protocol version", id, {
          supported,
          requested: typeof asked === "string" ? asked : "",
        });
      }
      return reject(400, -32020, "Header mismatch: the MCP-Protocol-Version header is required", id);
    }
    // A header that disagrees with the body is a mismatch, whatever the header names (SPEC.md §3.11).
    if (typeof metaVersion === "string" && metaVersion !== header)
      return versionMismatch(header, metaVersion, id);
    if (!supportedModern.includes(header)) {
      return reject(400, -32022, `Unsupported protocol version: ${header}`, id, {
        supported,
        requested: header,
      });
    }
    // Header rules for notification POSTs are undefined in 2026-07-28 (SPEC.md §8.9): only the version is checked.
    if (parsed.kind !== "request") return header;
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
    return header;
  }

  async function handleModernPost(
    req: InboundRequest,
    parsed: Exclude<ReturnType<typeof classifyValue>[number], { kind: "invalid" }>,
  ): Promise<Reply> {
    const version = checkModern(req, parsed);
    if (version instanceof Rejection) return version.response;
    if (parsed.kind === "success" || parsed.kind === "error") {
      return errorReply(
        400,
        -32600,
        "Invalid Request: clients do not send responses in this protocol version",
      );
    }
    if (parsed.kind === "request") {
      const busy = overloaded(parsed.message.id);
      if (busy) return busy;
    }
    const abort = new AbortController();
    const info = messageInfo(req, version, undefined, abort.signal);
    const exchange =
      parsed.kind === "request"
        ? new ModernExchange(parsed.message.id, preferJson, keepAliveInterval, sseLimit)
        : undefined;
    // One transport per request: the app keeps no state between modern requests, and the transport's
    // close is the end of the request (response sent or client gone).
    let transport!: OneShotTransport;
    transport = new OneShotTransport(exchange, () => oneShots.delete(transport), abort);
    oneShots.add(transport);
    if (exchange) req.onGone(() => exchange.clientGone());
    try {
      await options.connect(transport, connectionInfo(req, "modern", undefined));
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
      await transport.close();
      return errorReply(500, -32603, "Internal error", exchange?.id);
    }
    transport.deliver(parsed.message, info);
    if (!exchange) {
      // A notification is delivered and done.
      void transport.close();
      return emptyReply(202);
    }
    return exchange.response;
  }

  async function handleGet(req: InboundRequest): Promise<Reply> {
    if (!serveLegacy) return errorReply(405, -32600, "Method not allowed", undefined, undefined, ALLOW);
    if (!accepts(req.header("accept"), "text/event-stream")) {
      return errorReply(406, -32600, "Not Acceptable: Accept must allow text/event-stream");
    }
    const session = cluster ? await sharedSession(req, cluster) : findSession(req);
    if (session instanceof Rejection) return session.response;
    const version = legacyVersion(req);
    if (version instanceof Rejection) return version.response;
    session.touch();
    session.handshakeDone();
    const lastEventId = req.header(Header.LastEventId)?.trim();
    if (lastEventId) {
      const streamId = await settings.store.streamIdOf(lastEventId);
      // An id of another session (or an evicted one) resumes nothing: treat it as a fresh stream.
      if (streamId !== undefined && session.owns(streamId)) {
        const conn = new SseConnection(keepAliveInterval, sseLimit);
        const live = session.liveStream(streamId);
        if (live) {
          void live.resume(conn, lastEventId).catch(onError);
          if (live === session.standalone && session.shared) void session.claimStream().catch(onError);
        } else {
          // A finished stream: replay what the client missed, then end.
          void Promise.resolve(
            settings.store.replayEventsAfter(lastEventId, (eventId, message) => {
              conn.writeRaw(`event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`);
            }),
          )
            .catch(onError)
            .finally(() => conn.close());
        }
        return new Reply(200, SSE_HEADERS, conn);
      }
    }
    // One standalone stream per session: a second one would split messages unpredictably between them.
    if (session.standalone.conn?.isOpen) {
      return errorReply(409, -32600, "Conflict: this session already has an open GET stream");
    }
    const conn = new SseConnection(keepAliveInterval, sseLimit);
    session.standalone.attach(conn, version >= "2025-11-25");
    // Shared sessions: messages for the GET stream now come here (and what waited for one, first).
    if (session.shared) void session.claimStream().catch(onError);
    return new Reply(200, SSE_HEADERS, conn);
  }

  async function sharedSession(req: InboundRequest, store: SessionStore): Promise<Session | Rejection> {
    const found = await sharedRecord(req, store);
    if (found instanceof Rejection) return found;
    return replica(req, store, found[0], found[1]);
  }

  async function handleDelete(req: InboundRequest): Promise<Reply> {
    if (!serveLegacy) return errorReply(405, -32600, "Method not allowed", undefined, undefined, ALLOW);
    if (cluster) {
      const found = await sharedRecord(req, cluster);
      if (found instanceof Rejection) return found.response;
      // Every instance ends its replica on the store's `ended` signal; this one ends at once.
      await cluster.end(found[0]);
      sessions.get(found[0])?.terminate();
      return emptyReply(200);
    }
    const session = findSession(req);
    if (session instanceof Rejection) return session.response;
    session.terminate();
    return emptyReply(200);
  }

  // Only a request from a browser page carries Origin; the others need no CORS headers, and a page on a
  // refused origin gets none either (the browser then hides even the 403 from it).
  async function handle(req: InboundRequest): Promise<Reply | Response> {
    let origin = cors ? req.header("origin") : null;
    if (origin !== null && !originAllowed(origin, allowedOrigins)) origin = null;
    const reply = await answer(req, origin);
    return origin === null ? reply : withCors(reply, origin);
  }

  async function answer(req: InboundRequest, corsOrigin: string | null): Promise<Reply | Response> {
    try {
      if (closed) return errorReply(503, -32600, "Service unavailable: the server is shutting down");
      const forbidden = checkOrigin(req);
      if (forbidden) return forbidden.response;
      // A preflight carries no credentials: it is answered before `authenticate`.
      if (corsOrigin !== null && req.method === "OPTIONS") return preflightReply(req, corsOrigin);
      if (options.authenticate) {
        const identity = await options.authenticate(req.request);
        if (identity instanceof Response) return identity;
        req.identity = { value: identity };
      }
      switch (req.method) {
        case "POST":
          return await handlePost(req);
        case "GET":
          return await handleGet(req);
        case "DELETE":
          return await handleDelete(req);
        default:
          return errorReply(405, -32600, "Method not allowed", undefined, undefined, ALLOW);
      }
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
      return errorReply(500, -32603, "Internal error");
    }
  }

  const handler: StreamableHttpHandler = {
    maxBodyBytes,
    get sessionCount() {
      return sessions.size;
    },
    async fetch(request) {
      const reply = await handle(new WebInbound(request));
      return reply instanceof Reply ? reply.toResponse() : reply;
    },
    async close() {
      if (closed) return;
      closed = true;
      // A shared session lives on in the other instances: only this replica goes.
      for (const session of [...sessions.values()]) {
        if (session.shared) session.release();
        else session.terminate();
      }
      for (const transport of [...oneShots]) await transport.close();
    },
  };
  handlerCores.set(handler, handle);
  return handler;
}
