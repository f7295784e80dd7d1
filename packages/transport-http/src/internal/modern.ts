import {
  ConnectionClosedError,
  type JsonRpcId,
  type JsonRpcMessage,
  type SendOptions,
  type TransportTraits,
} from "@mcpkit/jsonrpc";
import { errorReply, jsonReply, Reply } from "./http-util.js";
import { InboundTransport } from "./inbound-transport.js";
import { SSE_HEADERS, type SseBufferLimit, SseConnection } from "./sse-connection.js";

/**
 * The HTTP status of a modern-era JSON error response, per the contract with @mcpkit/server:
 * -32601 → 404; -32020/-32021/-32022, -32600, -32700 → 400; -32602 whose `data.httpStatus` is 400
 * → 400; anything else 200.
 * @see SPEC.md §3.11 Status codes
 */
export function statusForError(error: { code?: unknown; data?: unknown }): number {
  switch (error.code) {
    case -32601:
      return 404;
    case -32020:
    case -32021:
    case -32022:
    case -32600:
    case -32700:
      return 400;
    case -32602: {
      const data = error.data as { httpStatus?: unknown } | undefined;
      return data !== null && typeof data === "object" && data.httpStatus === 400 ? 400 : 200;
    }
    default:
      return 200;
  }
}

/** The error response without the `httpStatus` hint the app may put in `data` (it is not for the wire). */
export function stripStatusHint(message: JsonRpcMessage): JsonRpcMessage {
  if (!("error" in message)) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  if (data === null || typeof data !== "object" || Array.isArray(data) || !("httpStatus" in data))
    return message;
  const { httpStatus: _hint, ...rest } = data;
  const error =
    Object.keys(rest).length === 0
      ? { code: message.error.code, message: message.error.message }
      : { ...message.error, data: rest };
  return { ...message, error };
}

/**
 * One modern-era POST carrying a request: waits for the app's first message for it and answers with
 * a JSON body when that message is the response (always for an error, so its status can be mapped;
 * for a result only when `preferJson`), otherwise with an SSE stream that the response ends.
 */
export class ModernExchange {
  readonly response: Promise<Reply>;
  private resolve!: (reply: Reply) => void;
  private state: "waiting" | "sse" | "done" = "waiting";
  private conn: SseConnection | undefined;
  /** Called once the client is gone or the response was sent. */
  onFinish: ((clientGone: boolean) => void) | undefined;

  constructor(
    readonly id: JsonRpcId,
    private readonly preferJson: boolean,
    private readonly keepAliveInterval: number,
    private readonly sseLimit?: SseBufferLimit,
  ) {
    this.response = new Promise<Reply>((r) => (this.resolve = r));
  }

  get done(): boolean {
    return this.state === "done";
  }

  write(message: JsonRpcMessage): void {
    if (this.state === "done")
      throw new ConnectionClosedError(`The response stream of request ${String(this.id)} is closed`);
    const isResponse = !("method" in message) && message.id === this.id;
    if (this.state === "waiting") {
      if (isResponse && ("error" in message || this.preferJson)) {
        const status = "error" in message ? statusForError(message.error) : 200;
        this.state = "done";
        this.resolve(jsonReply(status, JSON.stringify(stripStatusHint(message))));
        this.onFinish?.(false);
        return;
      }
      this.openSse();
    }
    this.conn!.writeRaw(
      `event: message\ndata: ${JSON.stringify(isResponse ? stripStatusHint(message) : message)}\n\n`,
    );
    if (isResponse) {
      this.state = "done";
      this.conn!.close();
      this.onFinish?.(false);
    }
  }

  private openSse(): void {
    const conn = new SseConnection(this.keepAliveInterval, this.sseLimit);
    this.conn = conn;
    this.state = "sse";
    conn.onEnd(() => {
      if (this.state !== "done") {
        this.state = "done";
        this.onFinish?.(true);
      }
    });
    this.resolve(new Reply(200, SSE_HEADERS, conn));
  }

  /** The client went away (its request's signal aborted). */
  clientGone(): void {
    if (this.state === "done") return;
    if (this.state === "sse") {
      this.conn!.close();
      return;
    }
    this.state = "done";
    this.resolve(errorReply(500, -32603, "Request aborted", this.id));
    this.onFinish?.(true);
  }

  /** The app closed the transport without answering: end the exchange with a generic error. */
  abandon(): void {
    if (this.state === "done") return;
    if (this.state === "sse") {
      this.state = "done";
      this.conn!.close();
      return;
    }
    this.state = "done";
    this.resolve(errorReply(500, -32603, "Internal error", this.id));
  }
}

/**
 * The one-shot transport of one modern-era HTTP request: it delivers exactly that message and closes
 * itself once the response was sent or the client went away.
 */
export class OneShotTransport extends InboundTransport {
  readonly traits: TransportTraits = { perRequestStream: true };

  constructor(
    private readonly exchange: ModernExchange | undefined,
    private readonly release: () => void,
    abort: AbortController,
  ) {
    super("OneShotTransport");
    if (exchange) {
      exchange.onFinish = (clientGone) => {
        // Closing the response stream is the cancellation of the request in this era.
        if (clientGone) abort.abort(new ConnectionClosedError("The client closed the response stream"));
        void this.close();
      };
    }
  }

  async send(message: JsonRpcMessage, _options?: SendOptions): Promise<void> {
    this.assertOpen();
    // Everything the app sends belongs to the one request this transport carries.
    if (!this.exchange) throw new ConnectionClosedError("A notification has no response stream");
    this.exchange.write(message);
  }

  protected onClosed(): void {
    this.exchange?.abandon();
    this.release();
  }
}
