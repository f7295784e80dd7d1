import { ConnectionClosedError } from "@mcpkit/jsonrpc";

/** What {@link McpCrashError} is built from. */
export interface McpCrashErrorOptions {
  /** The command that was spawned, as given to `spawnStdioTransport`. */
  command: string;
  /** The exit code when the child exited on its own; `undefined` when it was killed or has not been reaped. */
  exitCode?: number | undefined;
  /** The signal that killed the child (`"SIGKILL"`); `undefined` when it exited or has not been reaped. */
  signal?: NodeJS.Signals | undefined;
  /** The underlying exception: a broken pipe (`EPIPE`), a read error. */
  cause?: unknown;
  /** The last lines the child wrote to stderr, oldest first (empty unless stderr was piped). */
  stderrTail?: readonly string[];
  /** What was observed first: the child exited, closed its stdout, or its pipe broke. */
  event?: "exit" | "stdout-closed" | "pipe-broken";
}

/**
 * The server process behind a stdio transport died, closed its output or broke its pipe while the
 * connection was open.
 *
 * It extends `ConnectionClosedError`, so code that already handles a closed connection handles a
 * crash too; catch `McpCrashError` first when you want the details. Every request pending at the
 * moment of the crash rejects with this very instance. The exit code and signal are best-effort: the
 * transport waits a short settle window to reap the child before it reports. Local: never sent to
 * the peer.
 *
 * Recovery: spawn a new transport (and client), then re-send the requests that were in flight; the
 * server may or may not have carried them out before it died.
 */
export class McpCrashError extends ConnectionClosedError {
  override name = "McpCrashError";
  /** The command that was spawned. */
  readonly command: string;
  /** The exit code when the child exited on its own, else `undefined`. */
  readonly exitCode: number | undefined;
  /** The signal that killed the child, else `undefined`. */
  readonly signal: NodeJS.Signals | undefined;
  /** The last stderr lines of the child, oldest first; empty unless stderr was piped or given a callback. */
  readonly stderrTail: readonly string[];

  constructor(options: McpCrashErrorOptions) {
    super(crashMessage(options), options.cause === undefined ? undefined : { cause: options.cause });
    this.command = options.command;
    this.exitCode = options.exitCode ?? undefined;
    this.signal = options.signal ?? undefined;
    this.stderrTail = Object.freeze([...(options.stderrTail ?? [])]);
  }
}

function crashMessage(options: McpCrashErrorOptions): string {
  const who = `MCP server process "${options.command}"`;
  let what: string;
  if (options.signal) what = `was killed by ${options.signal}`;
  else if (options.exitCode !== undefined) what = `exited with code ${options.exitCode}`;
  else if (options.event === "pipe-broken") what = "broke its stdin pipe";
  else if (options.event === "stdout-closed") what = "closed its stdout";
  else what = "stopped";
  const cause = options.cause instanceof Error ? ` (${options.cause.message})` : "";
  const lines = [
    `${who} ${what}${cause} while the connection was open.`,
    "Requests in flight were failed; the server may or may not have carried them out.",
    "To recover, spawn a new transport and re-send what you still need.",
  ];
  const tail = options.stderrTail ?? [];
  if (tail.length > 0) lines.push("Last stderr lines:", ...tail.map((line) => `  ${line}`));
  return lines.join("\n");
}
