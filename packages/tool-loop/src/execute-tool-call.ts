import type { JsonSchemaValidator } from "@mcpkit/protocol";
import type { Toolbox } from "./aggregate.js";
import { argumentCheckFor } from "./argument-check.js";
import { UnknownToolError } from "./errors.js";
import { isPlainObject, untilAborted } from "./internal/until-aborted.js";
import type { ToolCall, ToolResultMessage } from "./model.js";
import { toolResultText } from "./result-text.js";
import type { ToolCallOutcome, ToolProgress } from "./tool-source.js";

/**
 * Why a tool result is an error, for the host (the model reads the text): on every error result of the
 * loop (`LoopToolResult.errorCode`, `ToolResultMessage.errorCode`, the `tool-result` event).
 * - `tool-error`: the tool ran and reported a failure (`isError: true` from the server);
 * - `invalid-arguments`: the arguments are not a JSON object or do not match the tool's `inputSchema`
 *   (checked locally: the server was not called);
 * - `unknown-tool`: no listed tool has that name (made up, or gone from a live list);
 * - `denied`: the approval hook refused the call;
 * - `approval-required`: a destructive tool with no approval hook to ask (see `allowDestructive`);
 * - `timeout`: the call took longer than `toolTimeout` and was cancelled;
 * - `call-failed`: the call failed locally (server gone, protocol error).
 */
export type ToolErrorCode =
  | "tool-error"
  | "invalid-arguments"
  | "unknown-tool"
  | "denied"
  | "approval-required"
  | "timeout"
  | "call-failed";

/** A tool result as the loop hands it to the model, with where it came from. */
export interface LoopToolResult {
  /** The text the model receives. */
  readonly content: string;
  /** True when the model should read `content` as an error. */
  readonly isError: boolean;
  /** Why it is an error (see {@link ToolErrorCode}); absent on a result that is not an error. */
  readonly errorCode?: ToolErrorCode | undefined;
  /** The tool's `structuredContent`, if any. */
  readonly structured?: unknown;
  /** The tool's own outcome, when the tool ran and answered. */
  readonly outcome?: ToolCallOutcome | undefined;
  /** What was thrown, when the call failed locally (server gone, unknown tool, bad arguments, timeout). */
  readonly error?: unknown;
  /** True when the approval hook denied the call (the tool did not run). */
  readonly denied?: boolean | undefined;
  /** True when the call was cut by its timeout (the MCP request was cancelled). */
  readonly timedOut?: boolean | undefined;
}

/** Options of {@link executeToolCall}. */
export interface ExecuteToolCallOptions {
  /** Aborts the call; `executeToolCall` then rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Milliseconds the call may take. When they pass, the MCP request is cancelled and the model gets an
   * error result saying the tool timed out (the run goes on). Default: no limit of the loop's own.
   */
  readonly timeout?: number | undefined;
  /** Receives the call's progress notifications. */
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
  /**
   * Checks the arguments against the tool's `inputSchema` before calling, with this validator (the
   * `@mcpkit/protocol` seam); arguments that do not fit are answered with the validator's errors and
   * never reach the server. Default: `createJsonSchemaValidator()`; `false` sends them unchecked.
   */
  readonly validator?: JsonSchemaValidator | false | undefined;
}

/**
 * Runs one tool call a model asked for and turns every way it can end into a result for the model.
 *
 * This is the step `runToolLoop` takes for each call, exported for hand-written loops and the bridges'
 * helpers: arguments that are not a JSON object or do not match the tool's `inputSchema` (checked here,
 * before the server is called), an unknown tool name (a made-up one, or one that vanished from a live
 * list), a tool that throws locally (server gone), a timeout and a result with `isError` all become
 * `isError: true` results carrying a message the model can act on and an `errorCode` the host can read.
 * Only an abort rejects (with `signal.reason`), even if the tool ignores the signal.
 */
export async function executeToolCall(
  tools: Toolbox,
  call: ToolCall,
  options: ExecuteToolCallOptions = {},
): Promise<LoopToolResult> {
  const { signal, timeout } = options;
  signal?.throwIfAborted();
  if (!isPlainObject(call.arguments)) {
    return {
      content: `Invalid arguments for tool "${call.name}": expected a JSON object, got ${describeValue(call.arguments)}`,
      isError: true,
      errorCode: "invalid-arguments",
    };
  }
  const check = argumentCheckFor(options.validator);
  if (check) {
    const tool = tools.tools.find((candidate) => candidate.name === call.name);
    const invalid = await untilAborted(check.check(call.name, tool, call.arguments), signal);
    if (invalid !== undefined) return { content: invalid, isError: true, errorCode: "invalid-arguments" };
  }
  let callSignal = signal;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unlink: (() => void) | undefined;
  if (timeout !== undefined && Number.isFinite(timeout)) {
    // One controller for the call: the run's abort passes through with its own reason; the timeout
    // cancels the MCP request too, but ends as an error result, not as the run's abort.
    const controller = new AbortController();
    if (signal) {
      const forward = () => controller.abort(signal.reason);
      signal.addEventListener("abort", forward, { once: true });
      unlink = () => signal.removeEventListener("abort", forward);
    }
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`Tool "${call.name}" timed out after ${timeout} ms`, "TimeoutError"));
    }, timeout);
    callSignal = controller.signal;
  }
  try {
    const callOptions = options.onProgress
      ? { signal: callSignal, onProgress: options.onProgress }
      : { signal: callSignal };
    const outcome = await untilAborted(tools.call(call.name, call.arguments, callOptions), callSignal);
    const isError = outcome.isError === true;
    return {
      content: toolResultText(outcome),
      isError,
      ...(isError ? { errorCode: "tool-error" as const } : {}),
      structured: outcome.structured,
      outcome,
    };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) {
      return {
        content: `Tool "${call.name}" timed out after ${timeout} ms and was cancelled`,
        isError: true,
        errorCode: "timeout",
        timedOut: true,
        error: callSignal?.reason,
      };
    }
    if (error instanceof UnknownToolError) {
      const known = tools.tools.map((tool) => tool.name).join(", ");
      return {
        content: `${error.message}. Available tools: ${known || "(none)"}`,
        isError: true,
        errorCode: "unknown-tool",
        error,
      };
    }
    const detail = error instanceof Error ? error.message : String(error);
    return {
      content: `Tool "${call.name}" failed: ${detail}`,
      isError: true,
      errorCode: "call-failed",
      error,
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    unlink?.();
  }
}

/** The transcript message answering `call` with `result`. */
export function toolResultMessage(call: ToolCall, result: LoopToolResult): ToolResultMessage {
  const message: ToolResultMessage = {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: result.content,
    isError: result.isError,
  };
  if (result.isError) Object.assign(message, { errorCode: result.errorCode ?? "tool-error" });
  return result.structured === undefined ? message : { ...message, structured: result.structured };
}

function describeValue(value: unknown): string {
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)}`;
  if (Array.isArray(value)) return "an array";
  return value === null ? "null" : typeof value;
}
