import { JsonRpcError } from "@mcpkit/jsonrpc";
import { McpErrorCode, MODERN_PROTOCOL_VERSIONS, readUnsupportedVersionData } from "@mcpkit/protocol";
import { isSessionExpired } from "../internal/util.js";
import type { Session } from "../session.js";
import type { Link, Outbound } from "./link.js";

/** What the retries need from the rest of the client. */
export interface RetryHooks {
  /** Whether the client is open: a closing client retries nothing. */
  isOpen(): boolean;
  /** Initializes a legacy session again, on the same transport, after its HTTP session expired. */
  reinitialize(session: Session, cause: unknown): Promise<void>;
}

/**
 * One retry rule: sets right what `error` says went wrong and answers true to send the request again,
 * or false when the error is not its case.
 */
type RetryRule = (op: Outbound, error: unknown, hooks: RetryHooks) => Promise<boolean> | boolean;

/** A legacy Streamable HTTP session that expired (404): initialize again, on the same transport. */
const sessionExpired: RetryRule = async (op, error, hooks) => {
  if (op.session.era !== "legacy" || !isSessionExpired(error)) return false;
  await hooks.reinitialize(op.session, error);
  return true;
};

/** A modern server that dropped our version names the ones to use: speak the best of them. */
const versionDropped: RetryRule = (op, error) => {
  const s = op.session;
  if (s.era !== "modern" || !(error instanceof JsonRpcError)) return false;
  if (error.code !== McpErrorCode.UnsupportedProtocolVersion) return false;
  const supported = readUnsupportedVersionData(error)?.supported ?? [];
  const next = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v) && v !== s.version);
  if (next === undefined) return false;
  s.speak("modern", next);
  return true;
};

/** `Mcp-Param-*` headers built from a stale tool list: list the tools again. @see SPEC.md §3.11 */
const headerMismatch: RetryRule = async (op, error) => {
  if (op.session.era !== "modern" || !(error instanceof JsonRpcError)) return false;
  if (error.code !== McpErrorCode.HeaderMismatch || op.method !== "tools/call") return false;
  if (!op.session.httpLike || op.refreshTool === undefined) return false;
  op.tool = await op.refreshTool();
  return true;
};

const RULES: readonly RetryRule[] = [sessionExpired, versionDropped, headerMismatch];

/**
 * The retries link: the single retry the spec asks for after an expired legacy session (initialize
 * again), a dropped modern version (the server names the ones to use) or an `Mcp-Param-*` mismatch (list
 * the tools again). At most one retry per request, none on a dead session or a closing client; the rest
 * of the chain (turn, envelope, timeouts) runs again for it.
 */
export function retryLink(hooks: RetryHooks): Link {
  return (op, next) =>
    next(op).catch(async (error: unknown) => {
      if (op.session.dead || !hooks.isOpen()) throw error;
      for (const rule of RULES) {
        if (await rule(op, error, hooks)) return next(op);
      }
      throw error;
    });
}
