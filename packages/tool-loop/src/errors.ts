/**
 * Two tools of an aggregation would reach the model under the same name.
 *
 * Thrown by `aggregateTools` before any model call: a model given two tools of one name cannot tell
 * them apart, and a call could run on the wrong server. Give the sources distinct prefixes, or a naming
 * hook that keeps names unique.
 */
export class ToolNameCollisionError extends Error {
  override readonly name = "ToolNameCollisionError";
  /** The name shared by more than one tool. */
  readonly toolName: string;
  /** Where each colliding tool comes from, as `"<source id>/<server-side name>"`. */
  readonly origins: readonly string[];

  constructor(toolName: string, origins: readonly string[]) {
    super(`Tool name "${toolName}" is used by more than one tool (${origins.join(", ")})`);
    this.toolName = toolName;
    this.origins = origins;
  }
}

/**
 * A call named a tool that is not in the tool list: the model made up a name, or the list changed.
 *
 * `runToolLoop` never lets this escape: it reports the failure to the model as an error result, so the
 * model can pick a listed tool. Direct callers of `call()` see the throw.
 */
export class UnknownToolError extends Error {
  override readonly name = "UnknownToolError";
  /** The name that matched no tool. */
  readonly toolName: string;

  constructor(toolName: string) {
    super(`Unknown tool "${toolName}"`);
    this.toolName = toolName;
  }
}
