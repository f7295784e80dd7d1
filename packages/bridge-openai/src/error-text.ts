/**
 * What a failed tool result's text starts with when it reaches an OpenAI model.
 *
 * Neither Chat Completions' tool messages nor Responses' function-call outputs have an error flag, so
 * the marking is in the text the model reads.
 */
export const TOOL_ERROR_PREFIX = "Error: ";

/** The text of a tool result for an OpenAI model: `content`, prefixed by {@link TOOL_ERROR_PREFIX} on error. */
export function toolOutputText(result: { readonly content: string; readonly isError: boolean }): string {
  return result.isError ? `${TOOL_ERROR_PREFIX}${result.content}` : result.content;
}
