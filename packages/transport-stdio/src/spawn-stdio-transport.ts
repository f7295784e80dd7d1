import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type SendOptions,
  type Transport,
  TransportError,
  type TransportSink,
  type TransportTraits,
} from "@mcpkit/jsonrpc";
import { McpCrashError } from "./crash-error.js";
import { childEnvironment } from "./internal/environment.js";
import { type ChannelEnd, LineChannel } from "./internal/line-channel.js";
import { StderrTail } from "./internal/stderr-tail.js";

/** Where a spawned server's stderr goes: the parent's stderr, nowhere, a pipe, or a callback per line. */
export type StderrOption = "inherit" | "ignore" | "pipe" | ((line: string) => void);

/** Options of {@link spawnStdioTransport}. */
export interface SpawnStdioTransportOptions {
  /** The program to run, looked up on `PATH`; no shell is involved (use `sh -c` yourself if you need one). */
  command: string;
  /** Its arguments, passed as they are. */
  args?: readonly string[];
  /** Working directory of the child. Default: the parent's. */
  cwd?: string;
  /** Variables added to the child's environment; an `undefined` value removes an inherited one. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Give the child the parent's whole environment (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN` and all).
   * Default false: the child gets only {@link defaultInheritedEnvNames} (`PATH`, `HOME`, `USER`,
   * `LOGNAME`, `SHELL`, `TERM`, `TMPDIR`, `LANG`, `LC_ALL`, `LC_CTYPE`; their Windows counterparts there)
   * plus `env`. Name what a server needs in `env` rather than turning this on.
   */
  inheritEnv?: boolean;
  /**
   * The child's stderr: `"inherit"` (default) shares the parent's; `"ignore"` drops it; `"pipe"`
   * exposes it as {@link StdioClientTransport.stderr}; a function receives each line. With `"pipe"` or
   * a function the last lines are kept for {@link McpCrashError.stderrTail}.
   */
  stderr?: StderrOption;
  /** How many stderr lines to keep for crash messages. Default 20. */
  stderrTailLines?: number;
  /** Cap on one inbound frame in bytes. Default 16 MiB. */
  maxFrameBytes?: number;
  /** Milliseconds `close()` waits after ending the child's stdin before SIGTERM. Default 2000. */
  closeGracePeriod?: number;
  /** Milliseconds `close()` waits after SIGTERM before SIGKILL. Default 2000. */
  killGracePeriod?: number;
  /**
   * Milliseconds to wait, once the child is seen dying, for it to be reaped (so the crash error can
   * carry its exit code or signal and its last stderr lines). Default 500.
   */
  crashSettleTime?: number;
}

/** How a spawned child ended, as Node reported it. */
export interface ChildExit {
  /** The exit code, or null when a signal killed it. */
  code: number | null;
  /** The signal that killed it, or null when it exited. */
  signal: NodeJS.Signals | null;
}

/** The client-side stdio transport returned by {@link spawnStdioTransport}. */
export interface StdioClientTransport extends Transport {
  /** The child's process id once `start()` resolved; it is also the id of its process group (POSIX). */
  readonly pid: number | undefined;
  /** The child's stderr stream when spawned with `stderr: "pipe"`, else null. */
  readonly stderr: Readable | null;
  /** The last stderr lines seen (oldest first); empty unless stderr is `"pipe"` or a callback. */
  stderrTail(): string[];
  /** Resolves (never rejects) once the transport closed, with the reason: an {@link McpCrashError} after a crash. */
  readonly closed: Promise<Error | undefined>;
  /** Resolves once the child process exited (never rejects; never resolves if it was never spawned). */
  readonly exited: Promise<ChildExit>;
}

/**
 * Creates the client side of stdio: `start()` spawns an MCP server and speaks newline-delimited
 * JSON-RPC over its stdin and stdout.
 *
 * - `start()` rejects with a `TransportError` naming the command when it cannot be spawned (`ENOENT`,
 *   `EACCES`); it never hangs on a missing program.
 * - On POSIX the child leads its own process group and every signal goes to the group, so a server
 *   started through a wrapper (`npx`, `sh -c`, `uvx`) leaves nothing behind.
 * - `close()` follows the spec's shutdown order: end stdin, wait `closeGracePeriod`, SIGTERM to the
 *   group, wait `killGracePeriod`, SIGKILL to the group; then the same for anything still left in the
 *   group after the child itself exited. It resolves once all of that is done. Pending requests
 *   fail at once, before the teardown.
 * - When the child exits, closes its stdout or breaks its pipe while the transport is open, the
 *   transport closes with an {@link McpCrashError} (after at most `crashSettleTime` to reap it), so
 *   every pending request rejects with it, and the rest of the group is torn down.
 * - The child gets a minimal environment unless `inheritEnv: true`: {@link defaultInheritedEnvNames}
 *   from the parent, plus `env`. The parent's `process.env` is never read after spawning, never mutated.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#shutdown
 */
export function spawnStdioTransport(options: SpawnStdioTransportOptions): StdioClientTransport {
  if (typeof options.command !== "string" || options.command.length === 0) {
    throw new TypeError("spawnStdioTransport: `command` must be a non-empty string");
  }
  return new StdioClientTransportImpl(options);
}

const POSIX = process.platform !== "win32";
// How often a group whose leader is gone is checked for survivors (there is no event to await).
const GROUP_POLL_MS = 10;

class StdioClientTransportImpl implements StdioClientTransport {
  readonly traits: TransportTraits = { perRequestStream: false };
  readonly closed: Promise<Error | undefined>;
  readonly exited: Promise<ChildExit>;
  private readonly options: SpawnStdioTransportOptions;
  private readonly tail: StderrTail;
  private child: ChildProcess | undefined;
  private channel: LineChannel | undefined;
  private sink: TransportSink | undefined;
  private started = false;
  private closedFlag = false;
  private closeReason: Error | undefined;
  private exit: ChildExit | undefined;
  private dying: Promise<McpCrashError> | undefined;
  private teardown: Promise<void> | undefined;
  private resolveClosed!: (reason: Error | undefined) => void;
  private resolveExited!: (exit: ChildExit) => void;
  private allClosed: Promise<void> | undefined;

  constructor(options: SpawnStdioTransportOptions) {
    this.options = options;
    const onLine = typeof options.stderr === "function" ? options.stderr : undefined;
    this.tail = new StderrTail(options.stderrTailLines ?? 20, onLine);
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get stderr(): Readable | null {
    return this.options.stderr === "pipe" ? (this.child?.stderr ?? null) : null;
  }

  stderrTail(): string[] {
    return this.tail.snapshot();
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.started) throw new Error("StdioClientTransport.start() was called twice");
    if (this.closedFlag) throw new ConnectionClosedError("StdioClientTransport is closed");
    this.started = true;
    const options = this.options;
    const command = options.command;
    const stderrMode = options.stderr ?? "inherit";
    let child: ChildProcess;
    try {
      child = spawn(command, [...(options.args ?? [])], {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env: childEnvironment(options.inheritEnv === true, options.env),
        stdio: ["pipe", "pipe", typeof stderrMode === "function" ? "pipe" : stderrMode],
        // Its own process group, so signals reach whatever a wrapper starts (POSIX only).
        detached: POSIX,
        windowsHide: true,
        shell: false,
      });
    } catch (error) {
      this.closedFlag = true;
      throw spawnError(command, options.cwd, error);
    }
    this.child = child;
    child.once("exit", (code, signal) => {
      this.exit = { code, signal };
      unregisterLiveGroup(this);
      this.resolveExited(this.exit);
      this.trouble("exit", undefined);
    });
    await new Promise<void>((resolve, reject) => {
      const onSpawn = () => {
        child.off("error", onError);
        resolve();
      };
      const onError = (error: Error) => {
        child.off("spawn", onSpawn);
        this.closedFlag = true;
        this.child = undefined;
        reject(spawnError(command, options.cwd, error));
      };
      child.once("spawn", onSpawn);
      child.once("error", onError);
    });
    if (this.closedFlag) {
      // close() was called while the child was starting; its teardown owns the child now.
      throw new ConnectionClosedError("StdioClientTransport was closed while starting");
    }
    registerLiveGroup(this);
    this.sink = sink;
    child.on("error", (error) => this.trouble("exit", error));
    this.allClosed = new Promise((resolve) => child.once("close", () => resolve()));
    if (child.stderr && (stderrMode === "pipe" || typeof stderrMode === "function")) {
      child.stderr.on("data", (chunk: Buffer) => this.tail.push(chunk));
      child.stderr.once("end", () => this.tail.end());
      child.stderr.on("error", () => {});
    }
    this.channel = new LineChannel({
      readable: child.stdout!,
      writable: child.stdin!,
      maxFrameBytes: options.maxFrameBytes,
      onEnd: (end) => this.channelEnded(end),
    });
    this.channel.attach(sink);
  }

  async send(message: JsonRpcMessage, _options?: SendOptions): Promise<void> {
    if (this.dying && !this.closedFlag) throw await this.dying;
    if (this.closedFlag || !this.channel) {
      throw this.closeReason instanceof McpCrashError
        ? this.closeReason
        : new ConnectionClosedError("StdioClientTransport is closed");
    }
    try {
      await this.channel.write(message);
    } catch (error) {
      // A write that lost the race with a dying child fails with the crash, like every other request.
      if (this.dying && !this.closedFlag) throw await this.dying;
      throw error;
    }
  }

  async close(reason?: Error): Promise<void> {
    if (!this.closedFlag) this.finish(reason);
    if (!this.teardown) this.teardown = this.terminate(this.options.closeGracePeriod ?? 2000);
    await this.teardown;
  }

  private channelEnded(end: ChannelEnd): void {
    if (end.kind === "input-ended") this.trouble("stdout-closed", undefined);
    else if (end.kind === "output-failed") this.trouble("pipe-broken", end.error);
    else this.trouble("stdout-closed", end.error);
  }

  // The child is going away on its own: reap it briefly, then close with the crash.
  private trouble(event: "exit" | "stdout-closed" | "pipe-broken", cause: Error | undefined): void {
    if (this.closedFlag || this.dying || !this.started) return;
    const settle = this.options.crashSettleTime ?? 500;
    this.dying = (async () => {
      await within(this.allClosed ?? this.exited, settle);
      const exit = this.exit;
      return new McpCrashError({
        command: this.options.command,
        exitCode: exit?.code ?? undefined,
        signal: exit?.signal ?? undefined,
        cause,
        stderrTail: this.tail.snapshot(),
        event: exit ? "exit" : event,
      });
    })();
    void this.dying.then((crash) => {
      if (this.closedFlag) return;
      this.finish(crash);
      // Whatever the crashed server left in its group goes too; no stdin grace for a dead server.
      if (!this.teardown) this.teardown = this.terminate(0);
    });
  }

  private finish(reason: Error | undefined): void {
    this.closedFlag = true;
    this.closeReason = reason;
    this.channel?.detach();
    // Keep draining stdout so a child still writing cannot block on a full pipe during shutdown.
    this.child?.stdout?.resume();
    this.sink?.onClose(reason);
    this.resolveClosed(reason);
  }

  private async terminate(stdinGrace: number): Promise<void> {
    const child = this.child;
    if (!child) return;
    const killGrace = this.options.killGracePeriod ?? 2000;
    if (child.stdin && !child.stdin.destroyed) child.stdin.end();
    if (!this.exit && stdinGrace > 0) await within(this.exited, stdinGrace);
    if (!this.exit) {
      this.signal(child, "SIGTERM");
      await within(this.exited, killGrace);
    }
    if (!this.exit) {
      this.signal(child, "SIGKILL");
      await within(this.exited, killGrace);
    }
    // The leader is gone; members of its group that outlived it (a wrapper's server) follow it.
    if (POSIX && child.pid !== undefined && groupAlive(child.pid)) {
      this.signal(child, "SIGTERM");
      if (!(await groupGone(child.pid, killGrace))) {
        this.signal(child, "SIGKILL");
        await groupGone(child.pid, killGrace);
      }
    }
    unregisterLiveGroup(this);
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    if (POSIX && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
        return;
      } catch {
        // No such group (already gone): fall back to the child itself.
      }
    }
    try {
      child.kill(signal);
    } catch {
      // Already reaped.
    }
  }

  /** Used by the exit hook: a last SIGTERM to the group when the parent exits with it still open. */
  killGroupNow(): void {
    if (this.child && !this.exit) this.signal(this.child, "SIGTERM");
  }
}

function spawnError(command: string, cwd: string | undefined, error: unknown): TransportError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = cwd === undefined ? "" : ` in ${cwd}`;
  const hint =
    code === "ENOENT"
      ? ": the program was not found (check the command, PATH, and that cwd exists)"
      : code === "EACCES"
        ? ": permission denied (is it executable?)"
        : `: ${(error as Error | undefined)?.message ?? String(error)}`;
  return new TransportError(`Could not start MCP server "${command}"${where}${hint}`, { cause: error });
}

/** Waits for `promise` but at most `ms` milliseconds; never rejects. */
function within(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    // ESRCH: none left. EPERM: not ours to signal, so waiting for it would be pointless.
    return false;
  }
  // A dead member stays signalable until its new parent reaps it, and some container inits reap
  // late: on Linux, count only members that are not zombies.
  return process.platform === "linux" ? liveMembersOnLinux(pgid) : true;
}

function liveMembersOnLinux(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      // After the parenthesised command name: state, ppid, pgrp.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 3);
      if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
    } catch {
      // It exited while we looked.
    }
  }
  return false;
}

/** Polls until no process of the group is left, at most `ms`; resolves whether it is gone. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }
  return true;
}

// Children still running when the parent process exits get a last SIGTERM to their group: a detached
// child would otherwise outlive a parent that forgot to close it (stdin EOF alone does not stop every server).
const liveGroups = new Set<StdioClientTransportImpl>();
let exitHookInstalled = false;

function registerLiveGroup(transport: StdioClientTransportImpl): void {
  liveGroups.add(transport);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const live of liveGroups) live.killGroupNow();
    });
  }
}

function unregisterLiveGroup(transport: StdioClientTransportImpl): void {
  liveGroups.delete(transport);
}
