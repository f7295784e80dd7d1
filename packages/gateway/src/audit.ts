import { appendFileSync } from "node:fs";

/** One line of the audit log: a call through the gateway. */
export interface AuditRecord {
  /** ISO time the call arrived. */
  time: string;
  /** The identity that made it (`anonymous` without credentials). */
  identity: string;
  /** The profile whose rules applied. */
  profile: string;
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The name (or URI) the client used. */
  name: string;
  /** The upstream and its own name for the item. */
  upstream: string;
  upstreamName: string;
  /** `ok`, `tool-error` (an `isError` result), `error` (a JSON-RPC error or failure), `input-required` (an MRTR round ended), `limited`. */
  outcome: "ok" | "tool-error" | "error" | "input-required" | "limited";
  durationMs: number;
  /** The error text, for `error`, `tool-error` and `limited`. */
  error?: string;
  /** The call's arguments, only when `gateway.audit.arguments` is true. */
  arguments?: unknown;
}

/** Where audit lines go: one JSON object per line. */
export type AuditSink = (record: AuditRecord) => void;

/**
 * The sink for `gateway.audit.target`: `stderr`, `off`, or a file appended to (synchronously, one
 * write per line, so lines of concurrent calls never interleave).
 */
export function createAuditSink(target: "stderr" | "off" | { file: string }): AuditSink {
  if (target === "off") return () => {};
  if (target === "stderr") return (record) => process.stderr.write(`${JSON.stringify(record)}\n`);
  return (record) => appendFileSync(target.file, `${JSON.stringify(record)}\n`);
}
