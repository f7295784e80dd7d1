import type { JsonRpcId } from "@mcpkit/jsonrpc";
import { DEFAULT_NEGOTIATED_HTTP_VERSION, Header } from "@mcpkit/protocol";
import {
  type HandlerState,
  limitReached,
  overloaded,
  reportError,
  tooManySessions,
} from "./handler-state.js";
import { errorReply, type Reply, randomId } from "./http-util.js";
import type { InboundRequest } from "./inbound.js";
import { Session } from "./legacy-session.js";
import { connectionInfo, messageInfo } from "./message-info.js";
import { sessionOwnerOf } from "./session-owner.js";
import { SharedSessionHandle } from "./shared-session-handle.js";

/**
 * A legacy `initialize` POST without a session id: opens a session (its record first, when shared),
 * connects its transport to the app and answers through a lazy exchange, so the `Mcp-Session-Id` header
 * goes out only on a successful answer; a failed initialize drops the session again.
 */
export async function initialize(
  state: HandlerState,
  req: InboundRequest,
  message: { id: JsonRpcId; method: string; params?: unknown },
): Promise<Reply> {
  const header = req.header(Header.ProtocolVersion)?.trim();
  if (header !== undefined && header !== "" && !state.supported.includes(header)) {
    return errorReply(
      400,
      -32600,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(header)}`,
      message.id,
    );
  }
  const sessions = state.sessions;
  if (sessions.size >= state.maxSessions) return tooManySessions(state, message.id).response;
  const busy = overloaded(state, message.id);
  if (busy) return busy;
  const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  const version = typeof requested === "string" ? requested : DEFAULT_NEGOTIATED_HTTP_VERSION;
  // The session exists before the app answers, so the app's connect() can see its id; it is dropped again
  // when initialize fails (onInitializeFailed below).
  const id = randomId();
  const owner = sessionOwnerOf(req);
  const cluster = state.cluster;
  let shared: SharedSessionHandle | undefined;
  if (cluster) {
    // The record first: the client may send its next request to any instance as soon as it has the id.
    await cluster.create(id, version, state.recordTtl, owner);
    shared = new SharedSessionHandle(id, cluster, `${cluster.instanceId}~`);
    shared.created();
  }
  const session = new Session(id, state.settings, version, owner, shared);
  sessions.set(session.id, session);
  if (!cluster) {
    const handshakeTimeout = state.handshakeTimeout;
    session.awaitHandshake(handshakeTimeout, () =>
      limitReached(
        state,
        "handshakeTimeout",
        handshakeTimeout,
        undefined,
        `a session was ended: its client sent nothing after initialize for ${handshakeTimeout} ms`,
        session.id,
      ),
    );
  }
  try {
    await state.options.connect(session.transport, connectionInfo(req, "legacy", session.id, shared));
  } catch (error) {
    reportError(state, error);
    session.terminate();
    return errorReply(500, -32603, "Internal error", message.id);
  }
  const preferJson = state.preferJson;
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
      cluster?.end(session.id).catch(state.onError);
    });
  req.onGone(() => exchange.clientGone());
  const info = messageInfo(req, version, session.id, undefined);
  info.closeSseStream = () => exchange.closeConnection();
  session.transport.deliver(message, info);
  return exchange.response;
}
