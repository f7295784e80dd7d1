import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type MessageInfo,
  type SendOptions,
  type Transport,
  type TransportSink,
  type TransportTraits,
} from "@mcpkit/jsonrpc";

/**
 * The server-side half shared by the legacy session transport and the modern one-shot transport:
 * one sink, a backlog for messages that arrive before `start`, an idempotent close.
 */
export abstract class InboundTransport implements Transport {
  abstract readonly traits: TransportTraits;
  protected sink: TransportSink | undefined;
  private backlog: Array<[unknown, MessageInfo]> = [];
  protected isClosed = false;
  private readonly label: string;

  constructor(label: string) {
    this.label = label;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.sink) throw new Error(`${this.label}.start() was called twice`);
    if (this.isClosed) throw new ConnectionClosedError(`${this.label} is closed`);
    this.sink = sink;
    const backlog = this.backlog;
    this.backlog = [];
    for (const [value, info] of backlog) sink.onMessage(value, info);
  }

  /** Hands one inbound message to the app (or keeps it until `start`). */
  deliver(value: unknown, info: MessageInfo): void {
    if (this.isClosed) return;
    if (this.sink) this.sink.onMessage(value, info);
    else this.backlog.push([value, info]);
  }

  abstract send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;

  async close(reason?: Error): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.backlog = [];
    try {
      this.sink?.onClose(reason);
    } finally {
      this.onClosed(reason);
    }
  }

  /** What the concrete transport frees once closed. */
  protected abstract onClosed(reason?: Error): void;

  protected assertOpen(): void {
    if (this.isClosed) throw new ConnectionClosedError(`${this.label} is closed`);
  }
}
