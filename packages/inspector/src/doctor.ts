import type { InspectorTarget } from "./target.js";

/** What the connection doctor says about a connect that failed. */
export interface Diagnosis {
  /** The step that failed: `spawn`, `process exited`, `stdout junk`, `DNS`, `refused`, `TLS`, `HTTP status`, `timeout`, `handshake`. */
  step: string;
  /** One line: what happened. */
  summary: string;
  /** What to do about it. */
  fix: string;
  /** The error's own message. */
  error: string;
  /** The last lines the server wrote to stderr (stdio). */
  stderrTail: string[];
  /** Lines the server wrote to stdout that are not JSON-RPC (stdio). */
  junk: string[];
  /** The HTTP statuses seen during the connect, in order. */
  httpStatuses: number[];
}

/** What the connection saw while connecting, for {@link diagnose}. */
export interface ConnectEvidence {
  stderrTail: string[];
  junk: string[];
  httpStatuses: number[];
}

interface ErrorLike {
  name?: string;
  message?: string;
  code?: string;
  status?: number;
  exitCode?: number;
  cause?: unknown;
}

/** The chain of an error and its causes (at most 6 deep). */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === "object" && out.length < 6) {
    out.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return out;
}

/**
 * Names the step of a failed connect, from the error and what the connection saw (stderr, stdout junk,
 * HTTP statuses), and says how to fix it.
 */
export function diagnose(target: InspectorTarget, error: unknown, evidence: ConnectEvidence): Diagnosis {
  const errors = chain(error);
  const message =
    errors
      .map((e) => e.message ?? "")
      .filter(Boolean)
      .join(": caused by: ") || String(error);
  const codes = errors.map((e) => e.code ?? "").join(" ");
  const base = {
    error: message,
    stderrTail: evidence.stderrTail,
    junk: evidence.junk,
    httpStatuses: evidence.httpStatuses,
  };
  const say = (step: string, summary: string, fix: string): Diagnosis => ({ step, summary, fix, ...base });
  if (target.kind === "stdio") {
    const command = target.command;
    if (/ENOENT/.test(codes) || /ENOENT/.test(message))
      return say(
        "spawn",
        `the command "${command}" was not found`,
        `install it or give its full path; the server gets a minimal PATH unless the entry's "env" sets one`,
      );
    if (/EACCES/.test(codes) || /EACCES/.test(message))
      return say(
        "spawn",
        `the command "${command}" is not executable`,
        "make it executable (chmod +x) or run it through its interpreter (node, python)",
      );
    const exited = errors.find((e) => e.name === "McpCrashError" || typeof e.exitCode === "number");
    const junk = evidence.junk[0];
    if (exited || /exited|crash/i.test(message)) {
      const code = exited?.exitCode;
      return say(
        "process exited",
        `the server exited${code === undefined ? "" : ` with code ${code}`} before the handshake finished${junk ? `, after writing to stdout what is not JSON-RPC: ${junk}` : ""}`,
        evidence.stderrTail.length > 0
          ? "read its stderr below: it names the cause (a missing module, a bad argument, a missing variable)"
          : "run the command in a terminal to see why it stops",
      );
    }
    if (junk !== undefined)
      return say(
        "stdout junk",
        `the server wrote output that is not JSON-RPC on stdout: ${junk}`,
        "over stdio, stdout carries only protocol messages: send logs and banners to stderr",
      );
  } else {
    if (/ENOTFOUND|EAI_AGAIN/.test(codes) || /ENOTFOUND|EAI_AGAIN/.test(message))
      return say("DNS", `the host of ${target.url} does not resolve`, "check the host name in the URL");
    if (/ECONNREFUSED/.test(codes) || /ECONNREFUSED/.test(message))
      return say(
        "refused",
        `nothing is listening at ${new URL(target.url).host}`,
        "start the server, or check the port in the URL",
      );
    if (/CERT|SSL|TLS|self.signed/i.test(codes) || /CERT|SSL|TLS|self.signed/i.test(message))
      return say(
        "TLS",
        "the server's TLS certificate was refused",
        "use a certificate the system trusts (NODE_EXTRA_CA_CERTS names an extra CA), or http:// for a local server",
      );
    const status =
      errors.find((e) => typeof e.status === "number")?.status ?? evidence.httpStatuses.find((s) => s >= 400);
    if (status !== undefined) {
      const fix =
        status === 401 || status === 403
          ? "the server wants credentials: add an Authorization header to the entry (OAuth sign-in is not in the inspector yet)"
          : status === 404
            ? "check the path: Streamable HTTP servers usually answer on /mcp, HTTP+SSE ones on /sse"
            : status === 405 || status === 400
              ? "the server may speak another transport: try the mode legacy or sse"
              : "read the server's log for this request";
      return say("HTTP status", `the server answered HTTP ${status}`, fix);
    }
  }
  if (errors.some((e) => e.name === "TimeoutError") || /timed? ?out/i.test(message))
    return say(
      "timeout",
      "the server did not answer the handshake in time",
      "the server hangs at start, or is slow: check that it reads requests (stdin for stdio)",
    );
  return say("handshake", "the handshake failed", "see the error; the wire view shows what was exchanged");
}
