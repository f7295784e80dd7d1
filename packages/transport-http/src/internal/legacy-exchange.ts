import type { JsonRpcId, JsonRpcMessage } from "@mcpkit/jsonrpc";
import { emptyReply, jsonReply, Reply } from "./http-util.js";
import type { Session } from "./legacy-session.js";
import type { LegacyStream } from "./legacy-stream.js";
import { SSE_HEADERS, SseConnection } from "./sse-connection.js";

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
