import type { Readable, Writable } from "node:stream";
import type { Transport } from "@mcpkit/jsonrpc";
import { createStreamTransport, type StreamTransport } from "./stream-transport.js";

/** Options of {@link createStdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where frames go. Default `process.stdout`. */
  stdout?: Writable;
  /** Cap on one inbound frame in bytes. Default 16 MiB. */
  maxFrameBytes?: number;
}

/**
 * Creates the server side of stdio: a {@link StreamTransport} over `process.stdin` and
 * `process.stdout` (or the streams given).
 *
 * It closes when stdin ends (the client went away or closed its end, as the spec's shutdown
 * sequence starts), with a `ConnectionClosedError` as reason; reading stops on close so the event
 * loop can drain. It never ends `process.stdout`, which Node keeps open for the process's life. It
 * does NOT guard stdout against other writers: use {@link serveStdio} for that, or log to stderr.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
export function createStdioServerTransport(options: StdioServerTransportOptions = {}): StreamTransport {
  const stdout = options.stdout ?? process.stdout;
  return createStreamTransport({
    readable: options.stdin ?? process.stdin,
    writable: stdout,
    ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
    endWritable: stdout !== process.stdout,
  });
}

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends StdioServerTransportOptions {
  /**
   * While serving, `console.log`, `console.info` and `console.debug` write to stderr, so a stray log
   * line cannot corrupt the protocol stream. Restored on close. Default true.
   */
  redirectConsole?: boolean;
  /**
   * Exit the process (code `process.exitCode ?? 0`) once the connection closed and stdout flushed,
   * so a server whose client vanished does not linger on timers it left running. Default true.
   */
  exitOnClose?: boolean;
}

/**
 * Serves one connection over stdio: creates the server transport, hands it to `connect` (which
 * starts a peer or server on it), and resolves with the close reason once stdin ended or the
 * transport closed.
 *
 * By default it keeps stdout for protocol frames only (console output goes to stderr) and exits the
 * process when the connection ends; see {@link ServeStdioOptions}. When `connect` throws, the
 * transport is closed and the error is rethrown (no exit).
 *
 * @example
 * ```ts
 * await serveStdio(async (transport) => {
 *   const peer = createPeer(transport);
 *   peer.onRequest("ping", () => ({}));
 *   await peer.start();
 * });
 * ```
 */
export async function serveStdio(
  connect: (transport: Transport) => void | Promise<void>,
  options: ServeStdioOptions = {},
): Promise<Error | undefined> {
  const { redirectConsole = true, exitOnClose = true, ...transportOptions } = options;
  const transport = createStdioServerTransport(transportOptions);
  const restore = redirectConsole ? consoleToStderr() : () => {};
  let reason: Error | undefined;
  try {
    await connect(transport);
    reason = await transport.closed;
  } catch (error) {
    await transport.close();
    throw error;
  } finally {
    restore();
  }
  if (exitOnClose) {
    const stdout = transportOptions.stdout ?? process.stdout;
    await new Promise<void>((resolve) => {
      // An empty write's callback runs once everything written before it was flushed.
      if (stdout.writable) stdout.write("", () => resolve());
      else resolve();
    });
    process.exit(process.exitCode ?? 0);
  }
  return reason;
}

function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => {
    console.log = saved.log;
    console.info = saved.info;
    console.debug = saved.debug;
  };
}
