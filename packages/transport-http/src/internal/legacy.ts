import {
  ConnectionClosedError,
  type JsonRpcId,
  type JsonRpcMessage,
  type SendOptions,
  type TransportTraits,
} from "@mcpkit/jsonrpc";
import type { EventStore } from "../event-store.js";
import type { SessionStore } from "../session-store.js";
import { emptyReply, jsonReply, Reply, unrefTimer } from "./http-util.js";
import { InboundTransport } from "./inbound-transport.js";
import type { SharedSessionHandle } from "./shared-session-handle.js";
import { SSE_HEADERS, type SseBufferLimit, SseConnection } from "./sse-connection.js";

/** Most messages kept for a standalone stream while no GET is connected. */
const MAX_UNDELIVERED = 1000;

function messageEvent(eventId: string, json: string): string {
  return `event: message\nid: ${eventId}\ndata: ${json}\n\n`;
}

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

/**
 * One resumable SSE stream of a legacy session: every event is stored before it is written, the live
 * connection may come and go (SEP-1699 polling, a dropped network), and a GET with `Last-Event-ID`
 * replays what was missed and carries on.
 */
export class LegacyStream {
  conn: SseConnection | undefined;
  /** Set once the stream's last message (its request's response) was emitted. */
  done = false;
  private replaying: Array<[string, string]> | undefined;
  private tail: Promise<void> | undefined;
  private undelivered: string[] | undefined;

  constructor(
    readonly id: string,
    private readonly session: Session,
    standalone: boolean,
  ) {
    if (standalone) this.undelivered = [];
  }

  /** Runs store-then-write steps in order, synchronously while the store answers synchronously. */
  private enqueue(step: () => void | Promise<void>): void {
    const run = () => {
      try {
        return step();
      } catch (error) {
        this.session.settings.onError(error as Error);
      }
    };
    if (this.tail === undefined) {
      const result = run();
      if (result instanceof Promise) {
        const next: Promise<void> = result
          .catch((error: unknown) => this.session.settings.onError(error as Error))
          .finally(() => {
            if (this.tail === next) this.tail = undefined;
          });
        this.tail = next;
      }
      return;
    }
    const next: Promise<void> = this.tail
      .then(run)
      .catch((error: unknown) => this.session.settings.onError(error as Error))
      .finally(() => {
        if (this.tail === next) this.tail = undefined;
      });
    this.tail = next;
  }

  /** Attaches a fresh connection and writes the priming event (an id, `retry`, empty data). */
  attach(conn: SseConnection, priming: boolean): void {
    this.setConn(conn);
    if (priming) {
      const { store, retryInterval } = this.session.settings;
      this.enqueue(() => {
        const id = store.storeEvent(this.id, null);
        const write = (eventId: string) =>
          conn.writeRaw(`id: ${eventId}\nretry: ${retryInterval}\ndata: \n\n`);
        if (typeof id === "string") write(id);
        else return id.then(write).then(() => {});
      });
    }
    if (this.undelivered && this.undelivered.length > 0) {
      const pending = this.undelivered;
      this.undelivered = [];
      this.enqueue(() => {
        for (const text of pending) conn.writeRaw(text);
      });
    }
  }

  private setConn(conn: SseConnection): void {
    const old = this.conn;
    this.conn = conn;
    if (old && old !== conn) old.close();
    conn.onEnd(() => {
      if (this.conn === conn) {
        this.conn = undefined;
        if (this.undelivered) this.session.streamLost();
      }
      this.session.touch();
    });
  }

  /** Stores and writes one message; `last` marks the response that completes the stream. */
  send(message: JsonRpcMessage, last: boolean): void {
    const json = JSON.stringify(message);
    const { store } = this.session.settings;
    this.enqueue(() => {
      const id = store.storeEvent(this.id, message);
      if (typeof id === "string") this.emit(id, json, last);
      else return id.then((eventId) => this.emit(eventId, json, last));
    });
  }

  private emit(eventId: string, json: string, last: boolean): void {
    const text = messageEvent(eventId, json);
    if (this.replaying) this.replaying.push([eventId, text]);
    else if (this.conn?.isOpen) this.conn.writeRaw(text);
    else if (this.undelivered) {
      this.undelivered.push(text);
      if (this.undelivered.length > MAX_UNDELIVERED) this.undelivered.shift();
    }
    if (last) {
      this.done = true;
      if (!this.replaying) this.conn?.close();
    }
  }

  /**
   * Closes the live connection (the client may come back with `Last-Event-ID`) once what was queued
   * before is written: with a store that answers later (Redis), the priming event is still on its way,
   * and a client cut off before it has no id to resume from.
   */
  disconnect(): void {
    const conn = this.conn;
    if (this.tail === undefined) conn?.close();
    else this.enqueue(() => conn?.close());
  }

  /**
   * Resumes on a new connection: replays the stored events after `lastEventId`, then writes what was
   * emitted meanwhile (each event once), then stays live — or ends, if the stream is complete.
   */
  async resume(conn: SseConnection, lastEventId: string): Promise<void> {
    this.setConn(conn);
    // Events on a standalone stream that waited for a connection are in the store too.
    if (this.undelivered) this.undelivered = [];
    this.replaying = [];
    const sent = new Set<string>();
    try {
      await this.session.settings.store.replayEventsAfter(lastEventId, (eventId, message) => {
        sent.add(eventId);
        conn.writeRaw(messageEvent(eventId, JSON.stringify(message)));
      });
    } finally {
      const meanwhile = this.replaying;
      this.replaying = undefined;
      for (const [eventId, text] of meanwhile) if (!sent.has(eventId)) conn.writeRaw(text);
      if (this.done) conn.close();
    }
  }
}

/**
 * One legacy POST carrying a request. With `lazy`, it waits for the app's first message: the
 * response alone becomes a JSON body (when `preferJson`, or always for an `initialize` error),
 * anything else opens the SSE stream. Otherwise the SSE stream opens at once with its priming event.
 */
export class LegacyExchange {
  readonly response: Promise<Reply>;
  private resolve!: (reply: Reply) => void;
  private state: "waiting" | "sse" | "done" = "waiting";
  private clientLeft = false;
  /** Response headers (the new session id on an `initialize` answer). */
  headers: Record<string, string> = {};
  /** Called when the initialize response turned out to be an error: the session is dropped. */
  onInitializeFailed: (() => void) | undefined;

  /** The exchange's resumable stream, once its SSE reply opened (a JSON reply never needs one). */
  stream: LegacyStream | undefined;

  constructor(
    readonly id: JsonRpcId,
    private readonly session: Session,
    private readonly options: { lazy: boolean; preferJson: boolean; priming: boolean; initialize: boolean },
  ) {
    this.response = new Promise<Reply>((r) => (this.resolve = r));
    if (!options.lazy) this.openSse();
  }

  get finished(): boolean {
    return this.state === "done" || this.stream?.done === true;
  }

  private openSse(): void {
    const conn = new SseConnection(this.session.settings.keepAliveInterval, this.session.settings.sseLimit);
    this.state = "sse";
    this.resolve(new Reply(200, Object.assign({}, SSE_HEADERS, this.headers), conn));
    const stream = this.session.newStream();
    this.stream = stream;
    stream.attach(conn, this.options.priming);
  }

  write(message: JsonRpcMessage): void {
    const isResponse = !("method" in message) && message.id === this.id;
    if (this.state === "waiting") {
      if (this.clientLeft) {
        if (isResponse) this.finish();
        return;
      }
      if (isResponse && this.options.initialize && "error" in message) {
        this.state = "done";
        this.onInitializeFailed?.();
        this.resolve(jsonReply(200, JSON.stringify(message)));
        this.finish();
        return;
      }
      if (isResponse && this.options.preferJson) {
        this.state = "done";
        this.resolve(jsonReply(200, JSON.stringify(message), this.headers));
        this.finish();
        return;
      }
      this.openSse();
    }
    this.stream?.send(message, isResponse);
    if (isResponse) this.finish();
  }

  /** The client dropped the POST before anything was sent: nothing can be resumed without an event id. */
  clientGone(): void {
    if (this.state === "waiting") this.clientLeft = true;
  }

  /** SEP-1699: close the connection now (opening the stream first if needed); the client resumes by GET. */
  closeConnection(): void {
    if (this.finished) return;
    if (this.state === "waiting") {
      if (this.clientLeft) return;
      this.openSse();
    }
    this.stream?.disconnect();
  }

  /** The request was cancelled or the session ended: end the exchange without an answer. */
  end(): void {
    if (this.state === "waiting") this.resolve(emptyReply(204));
    this.state = "done";
    if (this.stream) {
      this.stream.done = true;
      this.stream.disconnect();
    }
    this.finish();
  }

  private finish(): void {
    this.session.exchangeFinished(this);
  }
}

/** The session's transport: lives until DELETE, idle expiry, the handler's close, or the app's close. */
export class SessionTransport extends InboundTransport {
  readonly traits: TransportTraits = { perRequestStream: false };

  constructor(private readonly session: Session) {
    super("SessionTransport");
  }

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.assertOpen();
    this.session.route(message, options?.relatedRequestId);
  }

  /** The session's state in the shared store (the server's `SharedSession` seam); undefined in one process. */
  get sharedSession(): SharedSessionHandle | undefined {
    return this.session.shared;
  }

  protected onClosed(): void {
    // A shared session outlives this instance's replica of it: closing here ends nothing elsewhere.
    if (this.session.shared) this.session.release();
    else this.session.terminate();
  }
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
