import type { MessageInfo, Transport } from "@mcpkit/jsonrpc";
import { isLegacyVersion, isModernVersion, SUPPORTED_PROTOCOL_VERSIONS } from "@mcpkit/protocol";
import { createInMemoryEventStore, type EventStore } from "./event-store.js";
import { handleThroughConnect } from "./internal/connect-fallback.js";
import { CoreHandler } from "./internal/core-handler.js";
import { preflightReply, withCors } from "./internal/cors.js";
import { ALLOW, type HandlerState, reportError } from "./internal/handler-state.js";
import { errorReply, Reply } from "./internal/http-util.js";
import type { InboundRequest } from "./internal/inbound.js";
import { handleDelete, handleGet, handleLegacyPost } from "./internal/legacy-routes.js";
import type { Session } from "./internal/legacy-session.js";
import type { ModernExchange } from "./internal/modern.js";
import { handleModernPost } from "./internal/modern-route.js";
import {
  checkOrigin,
  checkPostHeaders,
  chooseEra,
  originPasses,
  parsePostBody,
} from "./internal/request-checks.js";
import { onSignal } from "./internal/shared-sessions.js";
import type { SseBufferLimit } from "./internal/sse-connection.js";
import {
  DEFAULT_HANDSHAKE_TIMEOUT,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION,
  DEFAULT_MAX_SSE_BUFFER_BYTES,
  type HttpLimitEvent,
  logLimit,
} from "./limits.js";
import type { ServerLike, SharedSessionState } from "./server-like.js";
import type { SessionStore } from "./session-store.js";

/** 16 MiB: the default cap on a POST body. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** What the handler tells the app about a new connection (legacy session) or request (modern). */
export interface HttpConnectionInfo {
  /**
   * `legacy`: a session's transport, alive until DELETE or expiry. `modern`: one request's own transport
   * (only for an app that gave `connect` and no `server`).
   */
  era: "legacy" | "modern";
  /** The legacy session id (issued on the initialize response). */
  sessionId?: string;
  /**
   * Legacy, with a `sessionStore`: true when this instance takes up a session another instance opened
   * (`sharedSession` holds the state to restore; the session is initialized already).
   */
  adopted?: boolean;
  /**
   * Legacy, with a `sessionStore`: the session's state shared with the other instances, for the server
   * to restore and write back — pass it on: `server.connect(transport, { sharedSession })` (the default
   * `connect` with `server` does). Undefined in one process.
   */
  sharedSession?: SharedSessionState;
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

/** Options of {@link createStreamableHttpHandler}: `server`, or `connect`, or both. */
export interface StreamableHttpHandlerOptions {
  /**
   * The MCP server (an `@mcpkit/server` server, or anything with its `handle` and `connect`): every
   * 2026-07-28 request is a call of `server.handle(message, context)`, with no transport or connection
   * made for it; every legacy session is `server.connect(transport)` (unless `connect` is given too).
   */
  server?: ServerLike;
  /**
   * Receives a transport for every new legacy session (an `initialize` POST without a session id).
   * Without `server`, also for every modern request: a transport that carries exactly that message and
   * closes itself once the response was sent or the client went away (the way to serve an app built on
   * a bare JSON-RPC peer). Default with `server`: `(t) => server.connect(t)`. A throw answers the request
   * with a generic 500.
   */
  connect?(transport: Transport, info: HttpConnectionInfo): void | Promise<void>;
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
export function createStreamableHttpHandler(given: StreamableHttpHandlerOptions): StreamableHttpHandler {
  const server = given.server;
  if (server === undefined && typeof given.connect !== "function") {
    throw new TypeError("createStreamableHttpHandler needs `server` or `connect`");
  }
  const options: HandlerState["options"] =
    typeof given.connect === "function"
      ? (given as HandlerState["options"])
      : Object.assign({}, given, {
          connect: async (transport: Transport, info: HttpConnectionInfo) => {
            const sharedSession = info.sharedSession;
            await server!.connect(transport, sharedSession === undefined ? undefined : { sharedSession });
          },
        });
  const eras = options.eras ?? "both";
  const serveLegacy = eras !== "modern";
  const serveModern = eras !== "legacy";
  const supported = (options.supportedVersions ?? SUPPORTED_PROTOCOL_VERSIONS).filter(
    (v) => (serveModern && isModernVersion(v)) || (serveLegacy && isLegacyVersion(v)),
  );
  const cors = options.cors === true;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSseBuffer = options.maxSseBufferBytes ?? DEFAULT_MAX_SSE_BUFFER_BYTES;
  const onLimit = options.onLimit ?? logLimit;
  const onError = options.onError ?? (() => {});
  const sessions = new Map<string, Session>();
  const cluster = serveLegacy ? options.sessionStore : undefined;
  const idleTimeout = options.sessionIdleTimeout ?? 30 * 60_000;
  const keepAliveInterval = options.keepAliveInterval ?? 15_000;
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
  const state: HandlerState = {
    options,
    server: server ?? { handle: handleThroughConnect(options.connect) },
    serveLegacy,
    serveModern,
    supported,
    supportedModern: supported.filter((v) => isModernVersion(v)),
    supportedLegacy: supported.filter((v) => isLegacyVersion(v)),
    allowedOrigins: options.allowedOrigins ?? [],
    allowedHosts: options.allowedHosts,
    maxBodyBytes,
    maxSessions: options.maxSessions ?? 10_000,
    maxConcurrent: options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
    maxPerSession: options.maxConcurrentRequestsPerSession ?? DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION,
    preferJson: options.preferJson ?? false,
    keepAliveInterval,
    handshakeTimeout: options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT,
    // The record's TTL: the idle timeout, or a day for sessions that never idle out in one process.
    recordTtl: Number.isFinite(idleTimeout) && idleTimeout > 0 ? idleTimeout : 86_400_000,
    onLimit,
    onError,
    sessions,
    exchanges: new Set<ModernExchange>(),
    load,
    cluster,
    settings: {
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
    },
    sseLimit,
    closed: false,
  };
  cluster?.listen((signal) => onSignal(state, signal));

  async function handlePost(req: InboundRequest): Promise<Reply> {
    const refused = checkPostHeaders(req);
    if (refused) return refused;
    // The node adapter has the body already: no extra turn for it.
    const read = req.readBody(maxBodyBytes);
    const body = read instanceof Promise ? await read : read;
    const parsed = parsePostBody(state, body);
    if (parsed instanceof Reply) return parsed;
    const era = chooseEra(state, req, parsed.message as unknown as Record<string, unknown>);
    if (typeof era !== "string") return era.response;
    return era === "modern" ? handleModernPost(state, req, parsed) : handleLegacyPost(state, req, parsed);
  }

  // Only a request from a browser page carries Origin; the others need no CORS headers, and a page on a
  // refused origin gets none either (the browser then hides even the 403 from it).
  async function handle(req: InboundRequest): Promise<Reply | Response> {
    let origin = cors ? req.header("origin") : null;
    if (origin !== null && !originPasses(origin, state.allowedOrigins, req.host())) origin = null;
    const reply = await answer(req, origin);
    return origin === null ? reply : withCors(reply, origin);
  }

  async function answer(req: InboundRequest, corsOrigin: string | null): Promise<Reply | Response> {
    try {
      if (state.closed) return errorReply(503, -32600, "Service unavailable: the server is shutting down");
      const forbidden = checkOrigin(state, req);
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
          return await handleGet(state, req);
        case "DELETE":
          return await handleDelete(state, req);
        default:
          return errorReply(405, -32600, "Method not allowed", undefined, undefined, ALLOW);
      }
    } catch (error) {
      reportError(state, error);
      return errorReply(500, -32603, "Internal error");
    }
  }

  return new CoreHandler(handle, state);
}
