import type { JsonRpcId } from "@mcpkit/jsonrpc";
import { DEFAULT_NEGOTIATED_HTTP_VERSION, Header, MetaKey } from "@mcpkit/protocol";
import type { SessionStore } from "../session-store.js";
import {
  ALLOW,
  type HandlerState,
  limitReached,
  overloaded,
  RETRY_AFTER,
  Rejection,
  reject,
} from "./handler-state.js";
import { accepts, emptyReply, errorReply, Reply } from "./http-util.js";
import type { InboundRequest } from "./inbound.js";
import { initialize } from "./legacy-initialize.js";
import type { Session } from "./legacy-session.js";
import { messageInfo } from "./message-info.js";
import type { ValidMessage } from "./request-checks.js";
import { sessionOwnerOf } from "./session-owner.js";
import { instanceOf, replica, sharedRecord, sharedSession } from "./shared-sessions.js";
import { SSE_HEADERS, SseConnection } from "./sse-connection.js";

const NO_SESSION = "Bad Request: Mcp-Session-Id header is required (send initialize first to open a session)";
// On a dual-era endpoint a request with neither era's markers could be meant for either: say what each needs.
const NEITHER_ERA =
  "Bad Request: this request belongs to no era: a 2026-07-28 request needs the MCP-Protocol-Version header " +
  `and params._meta["${MetaKey.ProtocolVersion}"]; a 2025-11-25 or older one needs an Mcp-Session-Id ` +
  "header from initialize";

function legacyVersion(state: HandlerState, req: InboundRequest): string | Rejection {
  const header = req.header(Header.ProtocolVersion)?.trim();
  if (header === undefined || header === "") return DEFAULT_NEGOTIATED_HTTP_VERSION;
  if (!state.supportedLegacy.includes(header)) {
    return reject(400, -32600, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(header)}`);
  }
  return header;
}

function findSession(state: HandlerState, req: InboundRequest, missing = NO_SESSION): Session | Rejection {
  const sessionId = req.header(Header.SessionId);
  if (sessionId === null || sessionId === "") return reject(400, -32600, missing);
  const session = state.sessions.get(sessionId);
  // Another identity's session is answered exactly as a session that does not exist.
  if (!session || session.ended || session.owner !== sessionOwnerOf(req)) {
    return reject(404, -32600, "Session not found");
  }
  return session;
}

/**
 * A legacy POST: `initialize` without a session id opens a session; anything else needs the session
 * (400 without its id, 404 once it ended) and a supported `MCP-Protocol-Version`.
 * @see SPEC.md §4.8 (legacy)
 */
export async function handleLegacyPost(
  state: HandlerState,
  req: InboundRequest,
  parsed: ValidMessage,
): Promise<Reply> {
  if (
    parsed.kind === "request" &&
    parsed.message.method === "initialize" &&
    !(req.header(Header.SessionId) !== null)
  ) {
    return initialize(state, req, parsed.message as { id: JsonRpcId; method: string; params?: unknown });
  }
  const cluster = state.cluster;
  if (cluster) return handleSharedPost(state, req, parsed, cluster);
  const session = findSession(state, req, state.serveModern ? NEITHER_ERA : NO_SESSION);
  if (session instanceof Rejection) return session.response;
  const version = legacyVersion(state, req);
  if (version instanceof Rejection) return version.response;
  return serveInSession(state, req, parsed, session, version);
}

/** A legacy POST of a session that is served here: the message goes to the app. */
function serveInSession(
  state: HandlerState,
  req: InboundRequest,
  parsed: ValidMessage,
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
  const maxPerSession = state.maxPerSession;
  if (session.openExchanges >= maxPerSession) {
    limitReached(
      state,
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
      RETRY_AFTER,
    );
  }
  const busy = overloaded(state, id);
  if (busy) return busy;
  const preferJson = state.preferJson;
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
  state: HandlerState,
  req: InboundRequest,
  parsed: ValidMessage,
  store: SessionStore,
): Promise<Reply> {
  const found = await sharedRecord(state, req, store, state.serveModern ? NEITHER_ERA : NO_SESSION);
  if (found instanceof Rejection) return found.response;
  const version = legacyVersion(state, req);
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
  const session = await replica(state, req, store, sessionId, found[1]);
  if (session instanceof Rejection) return session.response;
  return serveInSession(state, req, parsed, session, version);
}

/** A legacy GET: opens (or resumes, with `Last-Event-ID`) a session's standalone SSE stream. */
export async function handleGet(state: HandlerState, req: InboundRequest): Promise<Reply> {
  if (!state.serveLegacy) return errorReply(405, -32600, "Method not allowed", undefined, undefined, ALLOW);
  if (!accepts(req.header("accept"), "text/event-stream")) {
    return errorReply(406, -32600, "Not Acceptable: Accept must allow text/event-stream");
  }
  const cluster = state.cluster;
  const session = cluster ? await sharedSession(state, req, cluster, NO_SESSION) : findSession(state, req);
  if (session instanceof Rejection) return session.response;
  const version = legacyVersion(state, req);
  if (version instanceof Rejection) return version.response;
  session.touch();
  session.handshakeDone();
  const { keepAliveInterval, sseLimit, settings } = state;
  const lastEventId = req.header(Header.LastEventId)?.trim();
  if (lastEventId) {
    const streamId = await settings.store.streamIdOf(lastEventId);
    // An id of another session (or an evicted one) resumes nothing: treat it as a fresh stream.
    if (streamId !== undefined && session.owns(streamId)) {
      const conn = new SseConnection(keepAliveInterval, sseLimit);
      const live = session.liveStream(streamId);
      if (live) {
        void live.resume(conn, lastEventId).catch(state.onError);
        if (live === session.standalone && session.shared) void session.claimStream().catch(state.onError);
      } else {
        // A finished stream: replay what the client missed, then end.
        void Promise.resolve(
          settings.store.replayEventsAfter(lastEventId, (eventId, message) => {
            conn.writeRaw(`event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`);
          }),
        )
          .catch(state.onError)
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
  if (session.shared) void session.claimStream().catch(state.onError);
  return new Reply(200, SSE_HEADERS, conn);
}

/** A legacy DELETE: ends the session (on every instance, when shared). */
export async function handleDelete(state: HandlerState, req: InboundRequest): Promise<Reply> {
  if (!state.serveLegacy) return errorReply(405, -32600, "Method not allowed", undefined, undefined, ALLOW);
  const cluster = state.cluster;
  if (cluster) {
    const found = await sharedRecord(state, req, cluster, NO_SESSION);
    if (found instanceof Rejection) return found.response;
    // Every instance ends its replica on the store's `ended` signal; this one ends at once.
    await cluster.end(found[0]);
    state.sessions.get(found[0])?.terminate();
    return emptyReply(200);
  }
  const session = findSession(state, req);
  if (session instanceof Rejection) return session.response;
  session.terminate();
  return emptyReply(200);
}
