import { ConnectionClosedError, type JsonRpcId, type JsonRpcMessage } from "@mcpkit/jsonrpc";
import type { EventStore } from "../event-store.js";
import type { SessionStore } from "../session-store.js";
import { unrefTimer } from "./http-util.js";
import { LegacyExchange } from "./legacy-exchange.js";
import { LegacyStream } from "./legacy-stream.js";
import { SessionTransport } from "./session-transport.js";
import type { SharedSessionHandle } from "./shared-session-handle.js";
import type { SseBufferLimit } from "./sse-connection.js";

/** Settings a session takes from the handler. */
export interface SessionSettings {
  store: EventStore;
  retryInterval: number;
  keepAliveInterval: number;
  idleTimeout: number;
  onError: (error: Error) => void;
  onEnd: (session: Session) => void;
  /** Set when sessions are shared with other instances through a {@link SessionStore}. */
  cluster: SessionStore | undefined;
  /** The bound on what one SSE connection holds unread. */
  sseLimit: SseBufferLimit | undefined;
  /** Requests in flight in every session of the handler (their exchanges not finished yet). */
  load: { exchanges: number };
}

/** A legacy Streamable HTTP session: its transport, its streams, its open POST exchanges. */
export class Session {
  readonly transport: SessionTransport;
  readonly standalone: LegacyStream;
  private readonly exchanges = new Map<JsonRpcId, LegacyExchange>();
  /** Streams that may still get events, by id (finished POST streams leave; their events stay replayable). */
  private readonly liveStreams = new Map<string, LegacyStream>();
  private streamCount = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Armed from `initialize` until the client's next message (see {@link awaitHandshake}). */
  private handshakeTimer: ReturnType<typeof setTimeout> | undefined;
  private lastActive = 0;
  ended = false;
  /** The version of the session's latest request (`MCP-Protocol-Version`). */
  protocolVersion: string;
  /** Shared sessions: this instance holds the session's GET stream (it claimed it in the store). */
  holdsStream = false;
  /** Shared sessions: prefix of stream ids, unique per instance (a stream's events share one store). */
  private readonly streamPrefix: string;

  constructor(
    readonly id: string,
    readonly settings: SessionSettings,
    protocolVersion: string,
    /** The identity that opened the session (see `sessionOwnerOf`): only it may use the session. */
    readonly owner: string,
    /** The state shared with other instances; set exactly when `settings.cluster` is. */
    readonly shared?: SharedSessionHandle,
  ) {
    this.protocolVersion = protocolVersion;
    this.streamPrefix = settings.cluster ? `${settings.cluster.instanceId}.` : "";
    this.transport = new SessionTransport(this);
    this.standalone = new LegacyStream(`${id}-0`, this, true);
    this.liveStreams.set(this.standalone.id, this.standalone);
    this.touch();
  }

  /** Whether a stream id names one of this session's streams (ids carry the session id). */
  owns(streamId: string): boolean {
    return streamId.startsWith(`${this.id}-`);
  }

  liveStream(streamId: string): LegacyStream | undefined {
    return this.liveStreams.get(streamId);
  }

  /** A new exchange for a POSTed request; its stream of its own is made when its SSE reply opens. */
  openExchange(
    id: JsonRpcId,
    options: { lazy: boolean; preferJson: boolean; priming: boolean; initialize: boolean },
  ): LegacyExchange {
    // A retried id replaces the older exchange; its stream ends unanswered.
    this.exchanges.get(id)?.end();
    const exchange = new LegacyExchange(id, this, options);
    this.exchanges.set(id, exchange);
    this.settings.load.exchanges++;
    return exchange;
  }

  /** A new resumable stream of this session (for one POST's SSE reply). */
  newStream(): LegacyStream {
    const stream = new LegacyStream(`${this.id}-${this.streamPrefix}${++this.streamCount}`, this, false);
    this.liveStreams.set(stream.id, stream);
    return stream;
  }

  exchangeFinished(exchange: LegacyExchange): void {
    if (this.exchanges.get(exchange.id) === exchange) {
      this.exchanges.delete(exchange.id);
      this.settings.load.exchanges--;
    }
    if (exchange.stream) this.liveStreams.delete(exchange.stream.id);
    this.touch();
  }

  /** Requests of this session in flight (their exchanges not finished yet). */
  get openExchanges(): number {
    return this.exchanges.size;
  }

  exchange(id: JsonRpcId): LegacyExchange | undefined {
    return this.exchanges.get(id);
  }

  /** Routes an outbound message: responses and related messages to their request's stream, the rest to GET. */
  route(message: JsonRpcMessage, relatedRequestId: JsonRpcId | undefined): void {
    if (this.ended) throw new ConnectionClosedError(`Session ${this.id} has ended`);
    if (!("method" in message)) {
      const exchange = message.id === null ? undefined : this.exchanges.get(message.id);
      // A response nobody waits for any more (its request was cancelled) is dropped.
      exchange?.write(message);
      return;
    }
    const exchange = relatedRequestId === undefined ? undefined : this.exchanges.get(relatedRequestId);
    if (exchange && !exchange.finished) exchange.write(message);
    else if (this.shared === undefined || this.holdsStream) this.standalone.send(message, false);
    else if ("id" in message) {
      // A request of a handler running here, for a GET stream held elsewhere (or by nobody yet).
      const store = this.settings.cluster!;
      store.toStream(this.id, message).catch(this.settings.onError);
    }
    // An unrelated notification (a list change, a resource update) is a fan-out every instance raises:
    // the one holding the GET stream sends it, so the others drop theirs instead of sending it twice.
  }

  /** Shared sessions: the GET stream is now held here; what waited for it in the store goes out first. */
  async claimStream(): Promise<void> {
    const store = this.settings.cluster!;
    this.holdsStream = true;
    const kept = await store.claimStream(this.id);
    for (const message of kept) this.standalone.send(message, false);
  }

  /** The GET stream's connection ended: a shared session stops holding it. */
  streamLost(): void {
    if (!this.holdsStream || this.ended) return;
    this.holdsStream = false;
    this.settings.cluster!.releaseStream(this.id).catch(this.settings.onError);
  }

  /**
   * Ends the session unless the client sends something more (a POST or a GET, see {@link handshakeDone})
   * within `ms` of its `initialize`; `onTimeout` is told first. A non-finite or non-positive `ms` waits
   * for ever.
   */
  awaitHandshake(ms: number, onTimeout: () => void): void {
    if (!Number.isFinite(ms) || ms <= 0 || ms > 2_147_483_647) return;
    this.handshakeTimer = setTimeout(() => {
      this.handshakeTimer = undefined;
      if (this.ended) return;
      onTimeout();
      this.terminate();
    }, ms);
    unrefTimer(this.handshakeTimer);
  }

  /** The client spoke again after `initialize`: the handshake timeout no longer applies. */
  handshakeDone(): void {
    if (this.handshakeTimer === undefined) return;
    clearTimeout(this.handshakeTimer);
    this.handshakeTimer = undefined;
  }

  /**
   * Activity: the idle period starts again. Only the time is noted; the one timer, when it fires early,
   * waits for the rest of the period (no timer churn per request).
   */
  touch(): void {
    if (this.ended) return;
    const timeout = this.settings.idleTimeout;
    if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 2_147_483_647) return;
    this.lastActive = Date.now();
    if (this.idleTimer === undefined) this.armIdleTimer(timeout);
  }

  private armIdleTimer(ms: number): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.ended) return;
      const timeout = this.settings.idleTimeout;
      if (this.shared) return this.sharedIdleCheck(timeout);
      const rest = this.lastActive + timeout - Date.now();
      if (rest > 0) this.armIdleTimer(rest);
      // A session with an open stream is in use, however quiet.
      else if (this.hasOpenConnection()) this.touch();
      else void this.transport.close();
    }, ms);
    unrefTimer(this.idleTimer);
  }

  /**
   * Shared sessions: the record's TTL is the idle timeout. An open stream here is activity the store does
   * not see, so it is told every half period (before the TTL can lapse); an idle replica is released
   * (the record lives on, or expires, by its TTL).
   */
  private sharedIdleCheck(timeout: number): void {
    const half = timeout / 2;
    const now = Date.now();
    if (this.hasOpenConnection()) {
      this.lastActive = now;
      this.armIdleTimer(half);
      this.settings.cluster!.touch(this.id, timeout).then((record) => {
        if (record === undefined) this.terminate();
      }, this.settings.onError);
      return;
    }
    const rest = this.lastActive + timeout - now;
    if (rest > 0) this.armIdleTimer(Math.min(rest, half));
    else this.release();
  }

  private hasOpenConnection(): boolean {
    for (const stream of this.liveStreams.values()) if (stream.conn?.isOpen) return true;
    return false;
  }

  /**
   * Shared sessions: drops this instance's replica only (idle, or this instance closing): its streams
   * close (their clients resume elsewhere) and the app's connection closes; the record stays.
   */
  release(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    for (const exchange of [...this.exchanges.values()]) exchange.end();
    if (this.holdsStream) {
      this.holdsStream = false;
      this.settings.cluster?.releaseStream(this.id).catch(this.settings.onError);
    }
    this.standalone.disconnect();
    void this.transport.close();
    this.settings.onEnd(this);
  }

  /** Ends the session: every stream closes, the transport closes, later requests get 404. */
  terminate(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.handshakeDone();
    for (const exchange of [...this.exchanges.values()]) exchange.end();
    this.standalone.done = true;
    this.standalone.disconnect();
    void this.transport.close();
    const ids = Array.from({ length: this.streamCount + 1 }, (_, i) =>
      i === 0 ? this.standalone.id : `${this.id}-${this.streamPrefix}${i}`,
    );
    try {
      const deleted = this.settings.store.deleteStreams?.(ids);
      if (deleted instanceof Promise)
        deleted.catch((error: unknown) => this.settings.onError(error as Error));
    } catch (error) {
      this.settings.onError(error as Error);
    }
    this.settings.onEnd(this);
  }
}
