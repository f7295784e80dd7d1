import type { JsonValue } from "@mcpkit/protocol";
import { OutputValidationError } from "./errors.js";
import type { AwaitTaskOptions, CallOptions } from "./options.js";
import { issuePath, type StandardSchemaV1 } from "./standard-schema.js";
import type { ToolResult } from "./tool-result.js";

/**
 * What the client does when a tool's `structuredContent` does not match the `outputSchema` of its last
 * `tools/list`: `error` (default) throws `OutputValidationError`; `warn` reports that error to `onError`
 * and returns the result; `off` does not check.
 */
export type OutputValidation = "error" | "warn" | "off";

/** Options of {@link Client.callTool}. */
export interface ToolCallOptions<T = JsonValue> extends CallOptions {
  /**
   * Any Standard Schema (zod, valibot, arktype…) for the result's `structuredContent`: a result that is
   * not an error is parsed with it, `structured` is the parsed value and is typed by it. A mismatch
   * throws `OutputValidationError` naming the tool and each issue. Checked after the tool's own
   * `outputSchema`, if any.
   */
  schema?: StandardSchemaV1<unknown, T>;
  /** This call's {@link OutputValidation} (default: the client's `outputValidation`). */
  outputValidation?: OutputValidation;
}

/**
 * A `tools/call` started as a task (tasks extension, 2026-07-28), handed back as soon as the server
 * answered: `taskId` names the task, or is `undefined` when the server answered at once without one (a
 * legacy server, a tool without task support); `result()` then resolves with that answer.
 */
export interface ToolTaskHandle {
  /** The task's id, or `undefined` when the server answered without a task. */
  readonly taskId: string | undefined;
  /**
   * The tool's result: the task awaited (polled, its input requests answered by the handlers), or the
   * immediate answer. Checked like `callTool`'s.
   * @throws McpError when the task failed; TaskCancelledError when it was cancelled.
   */
  result(options?: AwaitTaskOptions): Promise<ToolResult>;
  /** `tasks/cancel` (nothing to cancel without a task). */
  cancel(options?: CallOptions): Promise<void>;
}

/**
 * Parses a result's `structuredContent` with a Standard Schema and returns the result typed by it.
 * @throws OutputValidationError naming the tool and every issue.
 */
export async function parseStructured<T>(
  tool: string,
  result: ToolResult,
  schema: StandardSchemaV1<unknown, T>,
): Promise<ToolResult<T>> {
  if (result.isError) return result as ToolResult<T>;
  const verdict = await schema["~standard"].validate(result.structured);
  if (verdict.issues !== undefined) {
    const errors = verdict.issues.map((issue) => {
      const path = issuePath(issue);
      return { instancePath: path ? `/${path.replaceAll(".", "/")}` : "", message: issue.message };
    });
    const detail = verdict.issues
      .map((issue) => (issuePath(issue) ? `${issuePath(issue)}: ${issue.message}` : issue.message))
      .join("; ");
    throw new OutputValidationError(
      tool,
      result.structured === undefined
        ? `Tool "${tool}" returned no structuredContent, which the schema given to callTool requires (${detail})`
        : `Tool "${tool}" returned structuredContent that does not match the schema given to callTool: ${detail}`,
      errors,
    );
  }
  return Object.assign({}, result, { structured: verdict.value }) as ToolResult<T>;
}
