import type { Readable, Writable } from "node:stream";
import {
  ConnectionClosedError,
  createLineFramer,
  type JsonRpcMessage,
  type LineFramer,
  TransportError,
  type TransportSink,
} from "@mcpkit/jsonrpc";

/** Why the channel stopped on its own: the input ended, or a stream failed. */
export type ChannelEnd =
  | { kind: "input-ended" }
  | { kind: "input-failed"; error: Error }
  | { kind: "output-failed"; error: Error };

/** The streams of a line channel, its frame size limit and the callback for its end. */
export interface LineChannelOptions {
  readable: Readable;
  writable: Writable;
  maxFrameBytes: number | undefined;
  /** Called once, the first time the channel stops by itself (never after `detach`). */
  onEnd(end: ChannelEnd): void;
}

/**
 * Newline-delimited JSON over a readable and a writable: frames in through the shared line framer,
 * one `JSON.stringify` per message out, writes in order with backpressure. Owns no close policy.
 */
export class LineChannel {
  private readonly readable: Readable;
  private readonly writable: Writable;
  private readonly framer: LineFramer;
  private readonly onEnd: (end: ChannelEnd) => void;
  private sink: TransportSink | undefined;
  private stopped = false;
  private ended = false;
  // Set while the writable is over its high-water mark; later writes wait for it.
  private drained: Promise<void> | undefined;
  private wakeDrain: (() => void) | undefined;
  private writeError: Error | undefined;

  constructor(options: LineChannelOptions) {
    this.readable = options.readable;
    this.writable = options.writable;
    this.onEnd = options.onEnd;
    this.framer = createLineFramer({
      ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
      onFrame: (line) => this.frame(line),
      onError: (error) => this.sink?.onInvalid(error),
    });
  }

  /** Starts reading into `sink`; data that arrived earlier waited in the readable's buffer. */
  attach(sink: TransportSink): void {
    this.sink = sink;
    this.writable.on("error", this.onWriteError);
    this.writable.on("drain", this.onDrain);
    this.writable.on("close", this.onDrain);
    this.readable.on("error", this.onReadError);
    this.readable.on("end", this.onReadEnd);
    this.readable.on("data", this.onData);
  }

  /** Stops reading and writing; listeners are removed except a no-op error guard. */
  detach(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.readable.off("data", this.onData);
    this.readable.off("end", this.onReadEnd);
    this.readable.off("error", this.onReadError);
    this.readable.on("error", ignore);
    this.writable.off("error", this.onWriteError);
    this.writable.on("error", ignore);
    this.writable.off("drain", this.onDrain);
    this.writable.off("close", this.onDrain);
    this.readable.pause();
    this.wakeDrain?.();
  }

  /** Writes one message as one line. Resolves once the line is handed to the writable. */
  async write(message: JsonRpcMessage): Promise<void> {
    let line: string;
    try {
      line = JSON.stringify(message) + "\n";
    } catch (error) {
      throw new TransportError("Could not serialize the message as JSON", { cause: error });
    }
    // Wait our turn: later sends queue here, in order, instead of piling up in the stream.
    while (this.drained && !this.stopped) await this.drained;
    if (this.stopped) throw new ConnectionClosedError("The stdio transport is closed");
    if (this.writeError) throw new TransportError("The output stream failed", { cause: this.writeError });
    if (this.writable.destroyed || this.writable.writableEnded) {
      throw new TransportError("The output stream is already closed");
    }
    if (!this.writable.write(line)) {
      this.drained = new Promise<void>((resolve) => {
        this.wakeDrain = resolve;
      });
    }
  }

  private frame(line: string): void {
    const sink = this.sink;
    if (!sink || this.stopped) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      // The line itself in the message: a server that prints a banner or a log line to stdout is the
      // usual cause, and the quote is what lets a user see it.
      sink.onInvalid(new SyntaxError(`Not JSON: ${quoteLine(line)}`, { cause: error }));
      return;
    }
    sink.onMessage(value);
  }

  private end(end: ChannelEnd): void {
    if (this.ended || this.stopped) return;
    this.ended = true;
    this.onEnd(end);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    if (this.stopped) return;
    this.framer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  };

  private readonly onReadEnd = (): void => {
    if (this.stopped) return;
    this.framer.end();
    this.end({ kind: "input-ended" });
  };

  private readonly onReadError = (error: Error): void => {
    this.end({ kind: "input-failed", error });
  };

  private readonly onWriteError = (error: Error): void => {
    this.writeError = error;
    this.onDrain();
    this.end({ kind: "output-failed", error });
  };

  private readonly onDrain = (): void => {
    const wake = this.wakeDrain;
    this.drained = undefined;
    this.wakeDrain = undefined;
    wake?.();
  };
}

function ignore(): void {}

/** A line as a JSON string, cut to 200 characters: short enough for one line of an error message. */
export function quoteLine(line: string): string {
  const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
  return JSON.stringify(trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed);
}
