import { isLoggingLevel, type LoggingLevel, McpError } from "@mcpkit/protocol";
import type { Conn } from "./connection.js";
import type { CallInfo } from "./internal/context.js";
import type { ServerCore } from "./server-core.js";
import { logLevelChange } from "./shared-session.js";

type Params = Record<string, unknown>;

/** Throws -32602 unless `params.level` is a logging level (`logging/setLevel`). */
export function checkSetLevelParams(p: Params): void {
  if (!isLoggingLevel(p.level)) throw McpError.invalidParams(`Invalid log level: ${JSON.stringify(p.level)}`);
}

/**
 * `logging/setLevel` (legacy): sets the session's threshold for `ctx.log` messages. A modern request
 * sets it per request with `_meta["io.modelcontextprotocol/logLevel"]` instead. A session kept in a
 * shared store is answered once the store has the level.
 */
export function setLevel(
  _core: ServerCore,
  _call: CallInfo,
  p: Params,
  legacy: Conn | undefined,
): Params | Promise<Params> {
  // A legacy-only row: the dispatcher runs it in a session's connection.
  const conn = legacy!;
  conn.session!.logLevel = p.level as LoggingLevel;
  if (conn.shared) return conn.shared.write(logLevelChange(p.level as LoggingLevel)).then(() => ({}));
  return {};
}
