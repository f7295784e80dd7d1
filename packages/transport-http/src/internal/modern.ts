import {
  ConnectionClosedError,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from "@mcpkit/jsonrpc";
import type { HttpMessageInfo } from "../handler.js";
import type { ModernRequestContext } from "../server-like.js";
import { errorReply, jsonReply, Reply } from "./http-util.js";
import { SSE_HEADERS, type SseBufferLimit, SseConnection } from "./sse-connection.js";

/**
 * The HTTP status of a modern-era JSON error response, by its JSON-RPC code alone: -32601 → 404;
 * -32020/-32021/-32022, -32600, -32700 → 400; anything else 200. The 400s of a malformed envelope
 * (-32602: params or `_meta` not objects, no `_meta` version or client capabilities) are answered by
 * `checkModern` before the server sees the request; a -32602 from the server (bad arguments) is 200.
 * @see SPEC.md §3.11 Status codes
 */
export function statusForError(error: { code?: unknown }): number {
  switch (error.code) {
    case -32601:
      return 404;
    case -32020:
    case -32021:
    case -32022:
    case -32600:
    case -32700:
      return 400;
    default:
      return 200;
  }
}

/**
 * One modern-era POST carrying a request, and the context the server answers it in: waits for the
 * server's first message for it and answers with a JSON body when that message is the response (always
 * for an error, so its status can be mapped; for a result only when `preferJson`), otherwise with an SSE
 * stream that the response ends. The client leaving (or the handler closing) aborts {@link signal}.
 */
export class ModernExchange implements ModernRequestContext {
  readonly response: Promise<Reply>;
  private resolve!: (reply: Reply) => void;
  private state: "waiting" | "sse" | "done" = "waiting";
  private conn: SseConnection | undefined;
  /** Called once, when the client is gone or the response was sent. */
  onFinish: (() => void) | undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly info: HttpMessageInfo,
    private readonly abort: AbortController,
    private readonly preferJson: boolean,
    private readonly keepAliveInterval: number,
    private readonly sseLimit?: SseBufferLimit,
  ) {
    this.response = new Promise<Reply>((r) => (this.resolve = r));
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** A notification of the request, on its stream (see {@link ModernRequestContext.notify}). */
  notify(message: JsonRpcNotification): void {
    this.write(message);
  }

  /** The server's answer: its response, or none (a cancelled request; an answer nobody can receive). */
  answer(response: JsonRpcResponse | undefined): void {
    if (response === undefined || this.state === "done") this.abandon();
    else this.write(response);
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
        this.finish();
        this.resolve(jsonReply(status, JSON.stringify(message)));
        return;
      }
      this.openSse();
    }
    this.conn!.writeRaw(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    if (isResponse) {
      this.finish();
      this.conn!.close();
    }
  }

  private finish(): void {
    this.state = "done";
    this.onFinish?.();
  }

  /** Closing the response stream is the cancellation of the request in this era. */
  private cancel(): void {
    this.finish();
    this.abort.abort(new ConnectionClosedError("The client closed the response stream"));
  }

  private openSse(): void {
    const conn = new SseConnection(this.keepAliveInterval, this.sseLimit);
    this.conn = conn;
    this.state = "sse";
    conn.onEnd(() => {
      if (this.state !== "done") this.cancel();
    });
    this.resolve(new Reply(200, SSE_HEADERS, conn));
  }

  /** The client went away (its request's signal aborted). */
  clientGone(): void {
    if (this.state === "done") return;
    if (this.state === "sse") {
      // The stream's end cancels the request (see openSse).
      this.conn!.close();
      return;
    }
    this.cancel();
    this.resolve(errorReply(500, -32603, "Request aborted", this.id));
  }

  /** The server gave no answer (or failed): end the exchange with a generic error. */
  abandon(): void {
    if (this.state === "done") return;
    const sse = this.state === "sse";
    this.finish();
    if (sse) this.conn!.close();
    else this.resolve(errorReply(500, -32603, "Internal error", this.id));
  }

  /** The handler closes: the request is cancelled and its reply ended with a generic error. */
  close(): void {
    if (this.state === "done") return;
    this.abort.abort(new ConnectionClosedError("The HTTP handler closed"));
    this.abandon();
  }
}
