import type { ReasoningPart, ToolCall } from "@mcpkit/tool-loop";

/** The `provider` of the reasoning parts this bridge reads from, and sends back to, the Messages API. */
export const ANTHROPIC_REASONING_PROVIDER = "anthropic";

/** A content block of a Messages API response (the subset read: `text`, `tool_use`, thinking). */
export interface AnthropicContentBlockLike {
  readonly type: string;
  /** `thinking`: the reasoning text. */
  readonly thinking?: string;
  /** `thinking`: the signature the API checks when the block comes back. */
  readonly signature?: string;
  /** `text`: the text. */
  readonly text?: string;
  /** `tool_use`: the call id. */
  readonly id?: string;
  /** `tool_use`: the tool name. */
  readonly name?: string;
  /** `tool_use`: the arguments, already an object. */
  readonly input?: unknown;
}

/** A Messages API response (the subset read). */
export interface AnthropicMessageLike {
  readonly content: readonly AnthropicContentBlockLike[];
  readonly stop_reason?: string | null;
}

/** Reads the `tool_use` blocks of a Messages API response, in order. */
export function readAnthropicToolCalls(message: AnthropicMessageLike): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type !== "tool_use" || block.id === undefined || block.name === undefined) continue;
    calls.push({ id: block.id, name: block.name, arguments: block.input ?? {} });
  }
  return calls;
}

/** The text of a Messages API response: its `text` blocks, joined. */
export function readAnthropicText(message: AnthropicMessageLike): string {
  return message.content
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("");
}

/**
 * The thinking blocks of a Messages API response (`thinking` with its `signature`, and
 * `redacted_thinking`), as reasoning parts to carry into the next turn: the API requires them back,
 * unchanged, before the `tool_use` blocks of the turn when thinking is on.
 */
export function readAnthropicReasoning(message: AnthropicMessageLike): ReasoningPart[] {
  const parts: ReasoningPart[] = [];
  for (const block of message.content) {
    if (block.type !== "thinking" && block.type !== "redacted_thinking") continue;
    parts.push({ provider: ANTHROPIC_REASONING_PROVIDER, text: block.thinking ?? "", data: block });
  }
  return parts;
}
