// Test support: an HTTP reply of an MCP endpoint (SSE or JSON) read message by message, and a bounded poll.
import { INSTANCE_HEADER } from "@mcpkit/test-kit";
import { createSseParser, type SseEvent } from "@mcpkit/transport-http";

export type Message = Record<string, any>;

/** An SSE (or JSON) reply read message by message; priming events (empty data) are skipped. */
export class Reply {
  readonly instance: number;
  readonly status: number;
  readonly sessionId: string | null;
  lastEventId = "";
  /** The SSE event id each message came with. */
  readonly idOf = new Map<Message, string>();
  /** Ids of the priming events (an id, empty data) seen so far. */
  readonly primingIds: string[] = [];
  private readonly queue: Message[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  failure: unknown;

  constructor(readonly response: Response) {
    this.instance = Number(response.headers.get(INSTANCE_HEADER));
    this.status = response.status;
    this.sessionId = response.headers.get("mcp-session-id");
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      const type = this.response.headers.get("content-type") ?? "";
      if (!type.includes("text/event-stream")) {
        const text = await this.response.text();
        if (text !== "") this.queue.push(JSON.parse(text) as Message);
        return;
      }
      const events: SseEvent[] = [];
      const parser = createSseParser({ onEvent: (event) => events.push(event) });
      const decoder = new TextDecoder();
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.push(decoder.decode(chunk, { stream: true }));
        for (const event of events.splice(0)) {
          if (event.id !== undefined) this.lastEventId = event.id;
          if (event.data === "") {
            if (event.id !== undefined) this.primingIds.push(event.id);
            continue;
          }
          const message = JSON.parse(event.data) as Message;
          if (event.id !== undefined) this.idOf.set(message, event.id);
          this.queue.push(message);
        }
        this.wake?.();
      }
    } catch (error) {
      this.failure = error;
    } finally {
      this.ended = true;
      this.wake?.();
    }
  }

  /** The next message matching `match`, or undefined once the reply ended without one; bounded. */
  async next(match: (m: Message) => boolean = () => true, ms = 10_000): Promise<Message | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.queue.findIndex(match);
      if (i >= 0) return this.queue.splice(i, 1)[0];
      if (this.ended) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("No message came in time");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Every message until the reply ends (bounded). */
  async rest(ms = 10_000): Promise<Message[]> {
    const out: Message[] = [];
    for (;;) {
      const m = await this.next(undefined, ms);
      if (m === undefined) return out;
      out.push(m);
    }
  }
}

/** Polls `probe` until `done` holds, at most `ms` in all; the last value is returned either way. */
export async function until<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
