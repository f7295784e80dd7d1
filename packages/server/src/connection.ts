import { createPeer, JsonRpcError, type Peer, type Transport } from "@mcpkit/jsonrpc";
import {
  type ClientCapabilities,
  type Implementation,
  type LoggingLevel,
  McpError,
  McpErrorCode,
  type ProtocolEra,
} from "@mcpkit/protocol";
import { dispatch } from "./dispatch.js";
import { RequestLimit } from "./request-limit.js";
import type { ServerCore } from "./server-core.js";
import {
  adoptSharedSession,
  type ConnectOptions,
  INITIALIZED_CHANGE,
  type SharedSession,
} from "./shared-session.js";
import { observeConnection, serverTelemetry } from "./telemetry.js";

/** One connection of a {@link Server}: a legacy session, or a carrier of modern requests. */
export interface ServerConnection {
  /** `legacy` once the client sent `initialize`; `modern` once it sent a 2026-07-28 request; else undefined. */
  readonly era: ProtocolEra | undefined;
  /** The negotiated version of a legacy session. */
  readonly protocolVersion: string | undefined;
  /** Closes this connection and its transport. */
  close(): Promise<void>;
  /** Resolves when the connection has closed. */
  readonly closed: Promise<void>;
}

/** A legacy session's state (after `initialize`). */
export interface Session {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** Set by `notifications/initialized`: list changes are told from then on. */
  initialized: boolean;
  /** The threshold of `logging/setLevel`; `undefined` until the client set one (everything is sent). */
  logLevel: LoggingLevel | undefined;
  /** URIs of `resources/subscribe`. */
  subscriptions: Set<string>;
}

/** The server's state of one connection. */
export interface Conn {
  peer: Peer;
  session: Session | undefined;
  era: ProtocolEra | undefined;
  /** The shared store of a legacy session served by several instances; every change is written there. */
  shared?: SharedSession | undefined;
}

/** What `connect` returns: a view of one connection (its `closed` promise is made on first use). */
class Connection implements ServerConnection {
  private closedPromise: Promise<void> | undefined;
  constructor(private readonly conn: Conn) {}
  get era(): ProtocolEra | undefined {
    return this.conn.era;
  }
  get protocolVersion(): string | undefined {
    return this.conn.session?.protocolVersion;
  }
  close(): Promise<void> {
    return this.conn.peer.close();
  }
  get closed(): Promise<void> {
    this.closedPromise ??= this.conn.peer.closed.then(() => {});
    return this.closedPromise;
  }
}

/**
 * Serves `transport` with the server of `core`: one JSON-RPC peer whose requests go to {@link dispatch},
 * kept in `core.connections` until it closes. Cheap, because a 2026-07-28 HTTP server connects once per
 * request: one peer, one small state object, one handler; nothing of the registry is rebuilt.
 * @throws whatever the transport's start throws (the connection is forgotten again).
 */
export async function connect(
  core: ServerCore,
  transport: Transport,
  options?: ConnectOptions,
): Promise<ServerConnection> {
  const conn: Conn = {
    peer: undefined as unknown as Peer,
    session: undefined,
    era: undefined,
    shared: undefined,
  };
  // A session kept in a shared store (several instances), as the caller gave it; undefined everywhere else.
  const shared = options?.sharedSession;
  const connections = core.connections;
  // Resolved once per server, then synchronous: a modern HTTP request waits for nothing here.
  const known = serverTelemetry(core.options);
  const telemetry = known instanceof Promise ? await known : known;
  const observation = observeConnection(core.options, telemetry, transport, conn);
  const closed = observation.closed;
  const peerOptions: Parameters<typeof createPeer>[1] = {
    // No batches until a session negotiates a revision that has them (see initialize).
    batches: false,
    onError: core.reportUnexpected,
    onClose: (reason) => {
      connections.delete(conn);
      closed?.(reason);
    },
  };
  if (observation.observer !== undefined) peerOptions.observer = observation.observer;
  if (core.options.requestTimeout !== undefined) peerOptions.timeout = core.options.requestTimeout;
  if (shared !== undefined) peerOptions.requestIdPrefix = shared.requestIdPrefix;
  const peer = createPeer(observation.transport, peerOptions);
  conn.peer = peer;
  if (shared !== undefined) adoptSharedSession(conn, shared);
  peer.onNotification("notifications/initialized", () => {
    if (!conn.session || conn.session.initialized) return;
    conn.session.initialized = true;
    conn.shared?.write(INITIALIZED_CHANGE).catch(core.reportUnexpected);
  });
  const limit = new RequestLimit(core.maxRequestsPerConnection, core.logger);
  peer.onAnyRequest((params, rctx) => {
    const refused = limit.admit();
    if (refused !== undefined) throw refused;
    let outcome: ReturnType<typeof dispatch>;
    try {
      outcome = dispatch(core, conn, params, rctx);
    } catch (error) {
      limit.release();
      throw error;
    }
    if (!(outcome instanceof Promise)) {
      limit.release();
      return outcome;
    }
    return outcome.then(
      (result) => {
        limit.release();
        return result;
      },
      (error: unknown) => {
        limit.release();
        // The request's own stream closed (HTTP disconnect = cancellation): nobody can receive an answer,
        // and the abort is not a failure worth logging.
        if (rctx.aborted && !(error instanceof JsonRpcError)) {
          throw new McpError(McpErrorCode.InternalError, "Request cancelled");
        }
        throw error;
      },
    );
  });
  connections.add(conn);
  try {
    await peer.start();
  } catch (error) {
    connections.delete(conn);
    throw error;
  }
  return new Connection(conn);
}
