import { ConnectionClosedError, createPeer, type Peer, type Transport } from "@mcpkit/jsonrpc";
import {
  allowsBatches,
  type ClientCapabilities,
  type DiscoverResult,
  type Implementation,
  type ProtocolEra,
  type ServerCapabilities,
  TASKS_EXTENSION_ID,
} from "@mcpkit/protocol";
import { answerInputRequest, type InputHandlers } from "./input.js";
import { isObject } from "./internal/util.js";
import { wrapTransport } from "./internal/wire.js";
import { type SessionObserve, sessionObserver } from "./observability.js";
import type { ClientSettings } from "./options.js";
import type { SubscriptionControl } from "./subscription.js";

/** The server-to-client requests an input handler answers, by handler. */
const INPUT_METHODS = [
  ["elicitation", "elicitation/create"],
  ["sampling", "sampling/createMessage"],
  ["roots", "roots/list"],
] as const;

/** What a session needs from the client that owns it. */
export interface SessionHooks {
  readonly settings: ClientSettings;
  /** True once the client is closing: sends are refused and streams end without an error. */
  closing(): boolean;
  /** Every notification the server sends on this session, in arrival order. */
  onNotification(session: Session, method: string, params: Record<string, unknown>): void;
}

/**
 * One connection to the server: the transport, the peer over it, and what the handshake settled (era,
 * version, capabilities both ways). A reconnection makes a new session; nothing carries over but the
 * client's caches.
 *
 * The peer answers `ping` and, with the app's handlers, the legacy server requests (elicitation, sampling,
 * roots). When the transport ends, the session is `dead` and every stream on it ends with the reason.
 */
export class Session {
  readonly inner: Transport;
  readonly peer: Peer;
  /** An HTTP transport, even while its legacy era has no per-request stream (x-mcp-header rules apply). */
  readonly httpLike: boolean;
  /** The transport puts per-request headers on the wire (HTTP): the client computes them for each send. */
  readonly headers: boolean;
  /** Telemetry observes this session's peer (the requests of one call then share a token). */
  readonly observed: boolean;
  era: ProtocolEra = "modern";
  version: string;
  declared: ClientCapabilities = {};
  serverInfo: Implementation | undefined = undefined;
  serverCapabilities: ServerCapabilities = {};
  instructions: string | undefined = undefined;
  /** The whole `server/discover` result (modern era), as the server sent it. */
  discovery: DiscoverResult | undefined = undefined;
  dead = false;
  closeReason: Error | undefined = undefined;
  /** The message of the first input that was not a JSON value (quoted by a connect timeout). */
  firstInvalid: string | undefined = undefined;
  /** Every `subscribe()` stream on this session. */
  readonly subs = new Set<SubscriptionControl>();
  /** Modern `subscriptions/listen` streams by the id of their request (notifications are tagged with it). */
  readonly listens = new Map<string, SubscriptionControl>();
  /** Legacy `resources/subscribe` reference counts by URI: one server subscription however many streams. */
  readonly resourceRefs = new Map<string, number>();
  /** The legacy re-initialization in flight, shared by every call that found the session expired. */
  reinit: Promise<void> | undefined = undefined;
  readonly #settings: ClientSettings;

  constructor(inner: Transport, hooks: SessionHooks, observe?: SessionObserve) {
    const settings = hooks.settings;
    this.#settings = settings;
    this.inner = inner;
    const traits = inner.traits;
    this.headers = traits?.perRequestHeaders === true;
    this.httpLike = this.headers || traits?.perRequestStream === true;
    this.version = settings.preferredModern;
    // The wire trace and OpenTelemetry: nothing at all when neither is on.
    const observation = observe?.(inner, { era: () => this.era, version: () => this.version });
    this.observed = observation?.observer !== undefined;
    const wire = wrapTransport(observation?.transport ?? inner, {
      era: () => this.era,
      refuse: () => (hooks.closing() ? new ConnectionClosedError("The client is closing") : undefined),
      explicitCancel: (method) => this.era === "legacy" && method !== "initialize",
      onInvalid: (error) => {
        this.firstInvalid ??= error.message;
      },
    });
    const peer = createPeer(wire, {
      // No JSON-RPC batches from the server unless the session speaks a revision that has them (speak()).
      batches: false,
      timeout: settings.requestConfig.timeout ?? 60_000,
      onError: settings.onError,
      observer: observation?.observer,
      onClose: (reason) => {
        observation?.closed?.(reason);
        this.dead = true;
        this.closeReason = reason;
        const error = reason ?? new ConnectionClosedError("The connection to the server closed");
        for (const sub of [...this.subs]) sub.end(hooks.closing() ? undefined : error);
        this.subs.clear();
        this.listens.clear();
      },
    });
    this.peer = peer;
    peer.onRequest("ping", () => ({}));
    const handlers = settings.handlers;
    // A declared capability answers its server request (legacy era; modern servers ask through MRTR) with
    // the handler set now: `setHandlers()` may give or replace it after connecting.
    const declared = declaredHandlers(settings);
    for (const [kind, method] of INPUT_METHODS) {
      if (!declared[kind]) continue;
      peer.onRequest(method, (params, ctx) =>
        answerInputRequest(
          handlers,
          this.declared,
          { method, params },
          { signal: ctx.signal, era: this.era, serverInfo: this.serverInfo },
        ),
      );
    }
    peer.onAnyNotification((params, ctx) =>
      hooks.onNotification(this, ctx.method, isObject(params) ? params : {}),
    );
  }

  /** Speaks `era` at `version` from now on, declaring the capabilities that go with them. */
  speak(era: ProtocolEra, version: string): void {
    this.era = era;
    this.version = version;
    this.peer.batches = allowsBatches(version);
    this.declared = declaredCapabilities(this.#settings, era, version);
  }

  /** Closes the peer and its transport; a failure goes to `onError`, never to the caller. */
  async close(reason?: Error): Promise<void> {
    await this.peer.close(reason).catch(this.#settings.onError);
  }
}

/** Where the parts get the live session from (the connection: it reconnects first when allowed). */
export interface SessionSource {
  /** The live session. @throws ConnectionClosedError when closed or gone for good; Error before connect. */
  ensure(): Promise<Session>;
}

/**
 * The input capabilities the client declared at `createClient`: a handler given there, or the capability
 * itself in `capabilities` (for a handler set later with `setHandlers`). What is declared never changes:
 * a handler set after creation answers only a capability declared here.
 */
export function declaredHandlers(settings: ClientSettings): Record<keyof InputHandlers, boolean> {
  const { handlers, capabilities } = settings.options;
  return {
    elicitation: handlers?.elicitation !== undefined || capabilities?.elicitation !== undefined,
    sampling: handlers?.sampling !== undefined || capabilities?.sampling !== undefined,
    roots: handlers?.roots !== undefined || capabilities?.roots !== undefined,
  };
}

/** Creates a session on `inner` and starts its peer. */
export async function startSession(inner: Transport, hooks: SessionHooks): Promise<Session> {
  const session = new Session(inner, hooks, await sessionObserver(hooks.settings.options));
  await session.peer.start();
  return session;
}

/**
 * The capabilities the client declares in `era` at `version`: the app's own, plus what its handlers
 * imply, plus the tasks extension when asked for (modern only). The app's own `extensions` (MCP Apps'
 * `io.modelcontextprotocol/ui`, ...) are declared in both eras: 2025-11-25 hosts send them too.
 */
export function declaredCapabilities(
  settings: ClientSettings,
  era: ProtocolEra,
  version: string,
): ClientCapabilities {
  const { options } = settings;
  const handlers = declaredHandlers(settings);
  const caps: ClientCapabilities = structuredClone(options.capabilities ?? {});
  if (handlers.elicitation && !caps.elicitation) {
    // Modes arrived in 2025-11-25; before that an empty object meant form elicitation.
    caps.elicitation = era === "legacy" && version < "2025-11-25" ? {} : { form: {} };
  }
  if (handlers.sampling && !caps.sampling) caps.sampling = {};
  if (handlers.roots && !caps.roots) caps.roots = {};
  if (era === "modern" && options.tasks) caps.extensions = { ...caps.extensions, [TASKS_EXTENSION_ID]: {} };
  return caps;
}
