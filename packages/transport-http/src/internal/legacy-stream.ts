import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import type { Session } from "./legacy-session.js";
import type { SseConnection } from "./sse-connection.js";

/** Most messages kept for a standalone stream while no GET is connected. */
const MAX_UNDELIVERED = 1000;

function messageEvent(eventId: string, json: string): string {
  return `event: message\nid: ${eventId}\ndata: ${json}\n\n`;
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
