import type { ModelStreamEvent } from "@mcpkit/tool-loop";
import {
  type AnthropicContentBlockLike,
  type AnthropicMessageLike,
  readAnthropicReasoning,
  readAnthropicText,
  readAnthropicToolCalls,
} from "./messages-read.js";

/** One event of a streamed Messages API response (`stream: true`; the subset read). */
export interface AnthropicStreamEventLike {
  readonly type: string;
  readonly index?: number;
  readonly content_block?: AnthropicContentBlockLike;
  readonly delta?: {
    readonly type?: string;
    readonly text?: string;
    readonly partial_json?: string;
    readonly thinking?: string;
    readonly signature?: string;
    readonly stop_reason?: string | null;
  };
  readonly message?: unknown;
}

/**
 * Reads a streamed Messages API response: text and thinking deltas as they come, `tool_use` input
 * assembled from its `input_json_delta` pieces, thinking blocks rebuilt with their `signature` (so they
 * can go back unchanged), then one `response` event. Input that is not complete JSON is kept as the
 * string, for the loop to answer with an error.
 */
export async function* readAnthropicStream(
  events: AsyncIterable<AnthropicStreamEventLike>,
): AsyncGenerator<ModelStreamEvent> {
  const blocks = new Map<number, Record<string, unknown>>();
  const json = new Map<number, string>();
  let stopReason: string | null | undefined;
  for await (const event of events) {
    const index = event.index ?? -1;
    switch (event.type) {
      case "content_block_start":
        if (event.content_block) blocks.set(index, { ...event.content_block });
        break;
      case "content_block_delta": {
        const block = blocks.get(index);
        const delta = event.delta;
        if (!block || !delta) break;
        if (delta.type === "text_delta" && delta.text !== undefined) {
          block.text = `${String(block.text ?? "")}${delta.text}`;
          yield { type: "text-delta", text: delta.text };
        } else if (delta.type === "thinking_delta" && delta.thinking !== undefined) {
          block.thinking = `${String(block.thinking ?? "")}${delta.thinking}`;
          yield { type: "reasoning-delta", text: delta.thinking };
        } else if (delta.type === "signature_delta" && delta.signature !== undefined) {
          block.signature = `${String(block.signature ?? "")}${delta.signature}`;
        } else if (delta.type === "input_json_delta" && delta.partial_json !== undefined) {
          json.set(index, `${json.get(index) ?? ""}${delta.partial_json}`);
          yield {
            type: "tool-input-delta",
            id: String(block.id ?? ""),
            name: String(block.name ?? ""),
            delta: delta.partial_json,
          };
        }
        break;
      }
      case "content_block_stop": {
        const block = blocks.get(index);
        const text = json.get(index);
        if (block?.type === "tool_use" && text !== undefined) block.input = parseInput(text);
        break;
      }
      case "message_delta":
        stopReason = event.delta?.stop_reason;
        break;
      case "error":
        throw new Error(`Anthropic stream failed: ${JSON.stringify(event)}`);
    }
  }
  const content = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]) => block as unknown as AnthropicContentBlockLike);
  const message: AnthropicMessageLike = { content, stop_reason: stopReason ?? null };
  const reasoning = readAnthropicReasoning(message);
  yield {
    type: "response",
    response: {
      text: readAnthropicText(message),
      toolCalls: readAnthropicToolCalls(message),
      ...(reasoning.length > 0 ? { reasoning } : {}),
      raw: message,
    },
  };
}

// An empty input is `{}` (a tool without arguments streams no piece); text that is not JSON is kept.
function parseInput(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
