import { McpCrashError } from "@mcpkit/transport-stdio";

/** How many of a crashed server's last stderr lines the CLI shows (the transport keeps 20). */
const TAIL_LINES = 12;

/**
 * The text the CLI prints for a failure, without the `mcpkit: ` prefix: the error's message with its
 * wire code once (never twice when the message already shows it), or, for a server process that died,
 * one line naming it and how it ended, then the last lines it wrote to stderr, indented.
 * @param commandLine the spawned server's command line, when the target was one.
 */
export function errorText(error: unknown, commandLine: string | undefined): string {
  const crash = findCrash(error);
  if (crash !== undefined) {
    const who = `server "${commandLine ?? crash.command}"`;
    const how =
      crash.signal !== undefined
        ? `was killed by ${crash.signal}`
        : crash.exitCode !== undefined
          ? `exited with code ${crash.exitCode}`
          : "closed its output";
    // Blank lines carry nothing; the end of the output is where the cause usually is.
    const tail = crash.stderrTail.filter((line) => line.trim() !== "").slice(-TAIL_LINES);
    if (tail.length === 0) return `${who} ${how}`;
    return `${who} ${how}; its last stderr lines:\n${tail.map((line) => `  ${line}`).join("\n")}`;
  }
  const inUse = findCode(error, "EADDRINUSE");
  if (inUse !== undefined) {
    const where =
      typeof inUse.port === "number"
        ? `port ${inUse.port}${inUse.address ? ` on ${inUse.address}` : ""}`
        : "the port";
    // The CLI's own wording names the flag; Node's (`listen EADDRINUSE: address already in use …`) does not.
    const message = (error as Error).message;
    return message.includes("(EADDRINUSE)") ? message : `${where} is already in use (EADDRINUSE)`;
  }
  const e = error as { message?: unknown; code?: unknown };
  const message = typeof e?.message === "string" ? e.message : String(error);
  const code = typeof e?.code === "number" ? String(e.code) : undefined;
  return code === undefined || message.includes(code) ? message : `${message} (${code})`;
}

/** The error along the `cause` chain whose `code` is `code` (Node's system errors carry one). */
function findCode(error: unknown, code: string): { port?: unknown; address?: unknown } | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === code) return e as { port?: unknown; address?: unknown };
  }
  return undefined;
}

/** The `McpCrashError` an error is or was caused by (a call on a dead connection wraps it). */
function findCrash(error: unknown): McpCrashError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof McpCrashError) return e;
  }
  return undefined;
}
