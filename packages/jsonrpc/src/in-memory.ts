import { ConnectionClosedError } from "./errors.js";
import type { JsonRpcMessage } from "./messages.js";
import type { MessageInfo, SendOptions, Transport, TransportSink, TransportTraits } from "./transport.js";

/** Options of {@link createInMemoryPair}. */
export interface InMemoryPairOptions {
  /**
   * Behave like a transport with a stream per request (HTTP): aborting a sent request's `signal`
   * aborts the receiving handler's `info.signal`, and no cancel notification is needed.
   */
  perRequestStream?: boolean;
}

class InMemoryTransport implements Transport {
  readonly traits: TransportTraits;
  other!: InMemoryTransport;
  private sink: TransportSink | undefined;
  private backlog: Array<[unknown, MessageInfo | undefined]> = [];
  private closed = false;

  constructor(perRequestStream: boolean) {
    this.traits = { perRequestStream };
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.sink) throw new Error("InMemoryTransport.start() was called twice");
    if (this.closed) throw new ConnectionClosedError("InMemoryTransport is closed");
    this.sink = sink;
    const backlog = this.backlog;
    this.backlog = [];
    for (const [value, info] of backlog) sink.onMessage(value, info);
  }

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.closed) throw new ConnectionClosedError("InMemoryTransport is closed");
    let info: MessageInfo | undefined;
    if (this.traits.perRequestStream && options?.signal && "id" in message && "method" in message) {
      // The receiver sees the sender's abort as its own stream closing, as on HTTP.
      info = { signal: options.signal };
    }
    // Deliver on a microtask: never re-entrantly inside the sender's call.
    queueMicrotask(() => this.other.deliver(message, info));
  }

  private deliver(value: unknown, info: MessageInfo | undefined): void {
    if (this.closed) return;
    if (this.sink) this.sink.onMessage(value, info);
    else this.backlog.push([value, info]);
  }

  async close(reason?: Error): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sink?.onClose(reason);
    // Closing one end closes the other, as a pipe would.
    queueMicrotask(() => void this.other.close());
  }
}

/**
 * Creates two connected transports for in-process use (tests, embedding a server in its host).
 * Messages are delivered by reference on a microtask, in order; closing either end closes both.
 */
export function createInMemoryPair(options: InMemoryPairOptions = {}): [Transport, Transport] {
  const a = new InMemoryTransport(options.perRequestStream ?? false);
  const b = new InMemoryTransport(options.perRequestStream ?? false);
  a.other = b;
  b.other = a;
  return [a, b];
}
