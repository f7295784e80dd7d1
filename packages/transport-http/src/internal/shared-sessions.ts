import type { JsonRpcId } from "@mcpkit/jsonrpc";
import { Header } from "@mcpkit/protocol";
import type { SessionRecord, SessionSignal, SessionStore } from "../session-store.js";
import { type HandlerState, Rejection, reject, reportError, tooManySessions } from "./handler-state.js";
import type { InboundRequest } from "./inbound.js";
import { Session } from "./legacy-session.js";
import { connectionInfo, RoutedMessageInfo } from "./message-info.js";
import { ANONYMOUS, sessionOwnerOf } from "./session-owner.js";
import { SharedSessionHandle } from "./shared-session-handle.js";

/** The instance a server-to-client request id names (`<instanceId>~<n>`, see `PeerOptions.requestIdPrefix`). */
export function instanceOf(id: JsonRpcId | null): string | undefined {
  if (typeof id !== "string") return undefined;
  const end = id.indexOf("~");
  return end > 0 ? id.slice(0, end) : undefined;
}

/**
 * Shared sessions: the record of the request's session, its TTL restarted; 400 (`missing`) without a
 * session id, 404 once it ended anywhere, and 404 alike when another identity opened it.
 */
export async function sharedRecord(
  state: HandlerState,
  req: InboundRequest,
  store: SessionStore,
  missing: string,
): Promise<[string, SessionRecord] | Rejection> {
  const sessionId = req.header(Header.SessionId);
  if (sessionId === null || sessionId === "") return reject(400, -32600, missing);
  const record = await store.touch(sessionId, state.recordTtl);
  if (record === undefined) {
    // Ended (or expired) elsewhere before this replica heard of it.
    state.sessions.get(sessionId)?.terminate();
    return reject(404, -32600, "Session not found");
  }
  // A record of a store that keeps no owner was opened by nobody in particular.
  if ((record.owner ?? ANONYMOUS) !== sessionOwnerOf(req)) return reject(404, -32600, "Session not found");
  return [sessionId, record];
}

/**
 * This instance's replica of a shared session, refreshed from `record`; made (and connected to the app
 * with `info.adopted`) when there is none. Requests that arrive while the app connects are kept by the
 * transport until it starts.
 */
export async function replica(
  state: HandlerState,
  req: InboundRequest,
  store: SessionStore,
  sessionId: string,
  record: SessionRecord,
): Promise<Session | Rejection> {
  const sessions = state.sessions;
  const existing = sessions.get(sessionId);
  if (existing !== undefined && !existing.ended) {
    existing.shared!.refresh(record);
    return existing;
  }
  if (sessions.size >= state.maxSessions) return tooManySessions(state, undefined);
  const shared = new SharedSessionHandle(sessionId, store, `${store.instanceId}~`);
  shared.refresh(record);
  const session = new Session(
    sessionId,
    state.settings,
    record.protocolVersion,
    record.owner ?? ANONYMOUS,
    shared,
  );
  sessions.set(sessionId, session);
  const info = connectionInfo(req, "legacy", sessionId, shared);
  info.adopted = true;
  try {
    await state.options.connect(session.transport, info);
  } catch (error) {
    reportError(state, error);
    session.release();
    return reject(500, -32603, "Internal error");
  }
  return session;
}

/** The replica serving the request's shared session (see {@link sharedRecord} and {@link replica}). */
export async function sharedSession(
  state: HandlerState,
  req: InboundRequest,
  store: SessionStore,
  missing: string,
): Promise<Session | Rejection> {
  const found = await sharedRecord(state, req, store, missing);
  if (found instanceof Rejection) return found;
  return replica(state, req, store, found[0], found[1]);
}

/** Shared sessions: what another instance (or the store) tells this one. */
export function onSignal(state: HandlerState, signal: SessionSignal): void {
  const session = state.sessions.get(signal.sessionId);
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
      state.cluster!.touch(session.id, state.recordTtl).then((record) => {
        if (record === undefined) session.terminate();
        else session.shared!.refresh(record);
      }, state.onError);
      return;
    case "ended":
      session.terminate();
      return;
  }
}
