import type { ReasoningPart, ToolCall } from "@mcpkit/tool-loop";
import { parseArguments } from "./internal/function-specs.js";

/** One item of a response's `output` (the subset read: messages and function calls). */
export interface ResponsesOutputItemLike {
  readonly type: string;
  /** `function_call`: the id the output must echo. */
  readonly call_id?: string | null | undefined;
  /** `function_call`: the tool name. */
  readonly name?: string | null | undefined;
  /** `function_call`: the arguments as JSON text. */
  readonly arguments?: unknown;
  /** `message`: its parts (`output_text` parts carry `text`). */
  readonly content?: unknown;
}

/** A Responses API response (the subset read). */
export interface ResponseLike {
  readonly output: readonly ResponsesOutputItemLike[];
}

/** The `provider` of the reasoning parts this bridge reads from, and sends back to, the Responses API. */
export const RESPONSES_REASONING_PROVIDER = "openai-responses";

/**
 * Reads the function calls of a Responses API response (its `function_call` output items, in order).
 * Arguments are parsed from JSON; text that is not JSON is kept as the string.
 */
export function readResponsesToolCalls(
  response: ResponseLike | readonly ResponsesOutputItemLike[],
): ToolCall[] {
  const items = Array.isArray(response) ? response : (response as ResponseLike).output;
  const calls: ToolCall[] = [];
  for (const item of items as readonly ResponsesOutputItemLike[]) {
    if (item.type !== "function_call" || typeof item.call_id !== "string" || typeof item.name !== "string")
      continue;
    const args = typeof item.arguments === "string" ? parseArguments(item.arguments) : (item.arguments ?? {});
    calls.push({ id: item.call_id, name: item.name, arguments: args });
  }
  return calls;
}

/** The text of a Responses API response: its `output_text` parts of assistant messages, joined. */
export function readResponsesText(response: ResponseLike): string {
  const texts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message") continue;
    if (typeof item.content === "string") texts.push(item.content);
    else if (Array.isArray(item.content)) {
      for (const part of item.content as { type?: unknown; text?: unknown }[]) {
        if (part?.type === "output_text" && typeof part.text === "string") texts.push(part.text);
      }
    }
  }
  return texts.join("");
}

/**
 * The reasoning items of a Responses API response, as reasoning parts to carry into the next turn:
 * `text` is the item's summary (joined), `data` the item itself (its `id`, `summary` and, when asked
 * for with `include: ["reasoning.encrypted_content"]`, `encrypted_content`).
 */
export function readResponsesReasoning(response: ResponseLike): ReasoningPart[] {
  const parts: ReasoningPart[] = [];
  for (const item of response.output) {
    if (item.type !== "reasoning") continue;
    const summary = (item as { summary?: unknown }).summary;
    const text = Array.isArray(summary)
      ? summary
          .map((part: { text?: unknown }) => (typeof part?.text === "string" ? part.text : ""))
          .join("\n")
      : "";
    parts.push({ provider: RESPONSES_REASONING_PROVIDER, text, data: item });
  }
  return parts;
}
