import type { ToolCallOutcome } from "./tool-source.js";

/**
 * The text a model receives for one tool result: its `content`, or the JSON of `structured` when the
 * content is empty (a tool that answers only with `structuredContent`), or `""` when it has neither.
 */
export function toolResultText(outcome: ToolCallOutcome): string {
  if (outcome.content !== "") return outcome.content;
  if (outcome.structured !== undefined) return JSON.stringify(outcome.structured);
  return "";
}
