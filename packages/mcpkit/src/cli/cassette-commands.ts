import type { Readable, Writable } from "node:stream";
import { UsageError } from "./args.js";
import { CASSETTE_HELP, type CassetteArgs, parseCassetteArgs } from "./cassette-args.js";
import { runDiff } from "./diff.js";
import { runRecord } from "./record.js";
import { runReplay } from "./replay.js";
import { runVerify } from "./verify.js";

/** What the cassette commands use of the process: its streams and working folder. */
export interface CassetteIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
  /** The proxy and the replay speak MCP on the process's own stdin/stdout. Default `process.stdin`. */
  stdin?: Readable;
}

/**
 * Runs `mcpkit record|replay|verify|diff …`. Resolves with the exit code: 0 success, 1 a divergence or a
 * breaking change (or a failure), 2 a usage error. Never throws.
 */
export async function runCassetteCommand(argv: readonly string[], io: CassetteIo): Promise<number> {
  let args: CassetteArgs;
  try {
    args = parseCassetteArgs(argv);
  } catch (error) {
    io.stderr.write(`mcpkit: ${(error as Error).message}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout.write(`${CASSETTE_HELP}\n`);
    return 0;
  }
  const stdin = io.stdin ?? process.stdin;
  // The proxy and the replay write raw frames: the process's stdout, whatever `io.stdout` wraps.
  const stdout: Writable = process.stdout;
  try {
    if (args.command === "record") return await runRecord(args, { stdin, stdout, stderr: io.stderr });
    if (args.command === "replay")
      return await runReplay(args, { stdin, stdout, stderr: io.stderr, cwd: io.cwd });
    if (args.command === "verify") return await runVerify(args, io);
    return await runDiff(args, io);
  } catch (error) {
    io.stderr.write(`mcpkit: ${args.command}: ${(error as Error).message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
