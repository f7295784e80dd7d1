import { INSTANCE_HEADER } from "@mcpkit/test-kit";
import { createSseParser, type SseEvent } from "@mcpkit/transport-http";

/** A JSON-RPC message as the demo reads it. */
export type Message = Record<string, any>;

/**
 * One HTTP answer of the cluster (JSON or SSE) read message by message, with the instance that served it
 * (the proxy's `x-mcpkit-instance` header) and the SSE event id of each message. Every wait is bounded.
 */
export class Reply {
  readonly instance: number;
  readonly status: number;
  readonly sessionId: string | null;
  /** The SSE event id each message came with. */
  readonly idOf = new Map<Message, string>();
  private readonly queue: Message[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(readonly response: Response) {
    this.instance = Number(response.headers.get(INSTANCE_HEADER));
    this.status = response.status;
    this.sessionId = response.headers.get("mcp-session-id");
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      if (!(this.response.headers.get("content-type") ?? "").includes("text/event-stream")) {
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
          // Priming events and keep-alives carry no message.
          if (event.data === "") continue;
          const message = JSON.parse(event.data) as Message;
          if (event.id !== undefined) this.idOf.set(message, event.id);
          this.queue.push(message);
        }
        this.wake?.();
      }
    } catch {
      // A broken stream (an instance killed) ends the reply; the demo sees no more messages.
    } finally {
      this.ended = true;
      this.wake?.();
    }
  }

  /** The next message matching `match`; undefined once the reply ended without one. Fails after `ms`. */
  async next(match: (m: Message) => boolean = () => true, ms = 10_000): Promise<Message | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.queue.findIndex(match);
      if (i >= 0) return this.queue.splice(i, 1)[0];
      if (this.ended) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no message within ${ms} ms (instance ${this.instance})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** The answer to a request (a message with a result or an error). */
  answer(ms?: number): Promise<Message | undefined> {
    return this.next((m) => "result" in m || "error" in m, ms);
  }
}
