import type { Readable, Writable } from "node:stream";
import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type SendOptions,
  type Transport,
  TransportError,
  type TransportSink,
  type TransportTraits,
} from "@mcpkit/jsonrpc";
import { type ChannelEnd, LineChannel } from "./internal/line-channel.js";

/** Options of {@link createStreamTransport}. */
export interface StreamTransportOptions {
  /** Where frames come from: a server's `process.stdin`, a child's stdout, a socket. */
  readable: Readable;
  /** Where frames go: a server's `process.stdout`, a child's stdin, a socket. */
  writable: Writable;
  /** Cap on one inbound frame in bytes. Default 16 MiB (`DEFAULT_MAX_FRAME_BYTES`). */
  maxFrameBytes?: number;
  /**
   * End the writable when the transport closes, so the other side reads end-of-file. Default true.
   * The readable is never destroyed: reading just stops.
   */
  endWritable?: boolean;
}

/** A {@link Transport} over a pair of Node streams, as returned by {@link createStreamTransport}. */
export interface StreamTransport extends Transport {
  /** Resolves (never rejects) once the transport has closed, with the close reason if there was one. */
  readonly closed: Promise<Error | undefined>;
  /** True once the transport has closed, locally or because the input ended. */
  readonly isClosed: boolean;
}

/**
 * Creates the newline-delimited JSON-RPC transport over any pair of Node streams.
 *
 * Each message is written as one `JSON.stringify` line (JSON escapes every newline, so frames never
 * contain one). Writes keep their order and respect backpressure: when the writable is over its
 * high-water mark, later sends wait for `drain` instead of piling up in the stream, and each send
 * resolves once its line was handed to the writable. Inbound lines go through the shared line
 * framer: a line over `maxFrameBytes` or one that is not JSON is reported to the sink's `onInvalid`
 * (the peer answers -32600 or -32700) and the connection lives on.
 *
 * The transport closes when `close()` is called, when the readable ends (reason: a
 * `ConnectionClosedError` saying the other side closed), or when either stream fails (reason: a
 * `TransportError` with the stream error as `cause`). It does NOT destroy the readable.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
export function createStreamTransport(options: StreamTransportOptions): StreamTransport {
  return new StreamTransportImpl(options);
}

class StreamTransportImpl implements StreamTransport {
  readonly traits: TransportTraits = { perRequestStream: false };
  readonly closed: Promise<Error | undefined>;
  private readonly channel: LineChannel;
  private readonly writable: Writable;
  private readonly endWritable: boolean;
  private sink: TransportSink | undefined;
  private started = false;
  private closedFlag = false;
  private resolveClosed!: (reason: Error | undefined) => void;

  constructor(options: StreamTransportOptions) {
    this.writable = options.writable;
    this.endWritable = options.endWritable ?? true;
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    this.channel = new LineChannel({
      readable: options.readable,
      writable: options.writable,
      maxFrameBytes: options.maxFrameBytes,
      onEnd: (end) => this.finish(reasonOf(end)),
    });
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.started) throw new Error("StreamTransport.start() was called twice");
    if (this.closedFlag) throw new ConnectionClosedError("StreamTransport is closed");
    this.started = true;
    this.sink = sink;
    this.channel.attach(sink);
  }

  async send(message: JsonRpcMessage, _options?: SendOptions): Promise<void> {
    if (this.closedFlag) throw new ConnectionClosedError("StreamTransport is closed");
    await this.channel.write(message);
  }

  async close(reason?: Error): Promise<void> {
    this.finish(reason);
  }

  private finish(reason: Error | undefined): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.channel.detach();
    // end() flushes lines already handed over before the other side reads end-of-file.
    if (this.endWritable && !this.writable.writableEnded && !this.writable.destroyed) this.writable.end();
    this.sink?.onClose(reason);
    this.resolveClosed(reason);
  }
}

function reasonOf(end: ChannelEnd): Error {
  switch (end.kind) {
    case "input-ended":
      return new ConnectionClosedError("The other side closed the stream (end of input)");
    case "input-failed":
      return new TransportError("Reading the input stream failed", { cause: end.error });
    case "output-failed":
      return new TransportError("Writing the output stream failed", { cause: end.error });
  }
}
