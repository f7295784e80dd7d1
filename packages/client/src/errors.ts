/**
 * The server answered, but with a result the client cannot accept: an unknown `resultType`, a task the
 * client did not ask for, a list whose cursor repeats, a version the client does not speak.
 *
 * Local: it never crosses the wire. The session stays usable; only this call failed.
 */
export class InvalidResultError extends Error {
  override name = "InvalidResultError";
  /** The method whose result was rejected. */
  readonly method: string;
  constructor(method: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.method = method;
  }
}

/**
 * A tool's `structuredContent` does not match the `outputSchema` from the last `tools/list` (or is missing
 * while the schema requires it). The message names the tool; `errors` holds the validator's findings.
 *
 * Local. Never raised for an `isError: true` result.
 * @see SPEC.md §3.9 Tools ("client SHOULD validate")
 */
export class OutputValidationError extends InvalidResultError {
  override name = "OutputValidationError";
  /** The tool whose output failed. */
  readonly tool: string;
  /** What the JSON Schema validator reported (instance path and message per problem). */
  readonly errors: ReadonlyArray<{ instancePath: string; message: string }>;
  constructor(
    tool: string,
    message: string,
    errors: ReadonlyArray<{ instancePath: string; message: string }> = [],
  ) {
    super("tools/call", message);
    this.tool = tool;
    this.errors = errors;
  }
}

/**
 * An `input_required` round (2026-07-28) or a task's input request could not be answered: the client
 * has no handler for the capability the server asked for (`capability` names it), the server asked for
 * something unknown, or the rounds exceeded `maxInputRounds`.
 *
 * Local.
 * @see SPEC.md §3.7 MRTR
 */
export class InputRequestError extends Error {
  override name = "InputRequestError";
  /** The client capability the server asked for (`elicitation`, `sampling`, `roots`), when that was the problem. */
  readonly capability: string | undefined;
  constructor(message: string, capability?: string) {
    super(message);
    this.capability = capability;
  }
}

/**
 * A task ended `cancelled` while {@link Client.awaitTask} waited for it (a failed task rejects with the
 * task's `McpError` instead). Local.
 */
export class TaskCancelledError extends Error {
  override name = "TaskCancelledError";
  readonly taskId: string;
  constructor(taskId: string, message = `Task ${taskId} was cancelled`) {
    super(message);
    this.taskId = taskId;
  }
}
