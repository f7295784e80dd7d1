import type { ModelStreamEvent, ToolCall } from "@mcpkit/tool-loop";
import { parseArguments } from "./internal/function-specs.js";

/** One chunk of a streamed Chat Completion (`stream: true`; the subset read). */
export interface ChatCompletionChunkLike {
  readonly choices?:
    | readonly {
        readonly delta?: {
          readonly content?: string | null;
          readonly refusal?: string | null;
          readonly tool_calls?:
            | readonly {
                readonly index: number;
                readonly id?: string | null;
                readonly function?: { readonly name?: string | null; readonly arguments?: string | null };
              }[]
            | null;
        };
      }[]
    | undefined;
}

/**
 * Reads a streamed Chat Completion: text deltas as they come, tool calls assembled from their pieces
 * (keyed by `index`: the first piece names the call and its id, the next ones carry more of the
 * arguments' JSON), then one `response` event with the text and the calls, arguments parsed (text that
 * is not complete JSON is kept as the string, for the loop to answer with an error).
 *
 * `restore` rewrites parsed arguments (the strict-mode `null`s); `chunks` is what `create({ stream:
 * true })` of `openai` resolves with, or any async iterable of chunks.
 */
export async function* readChatCompletionsStream(
  chunks: AsyncIterable<ChatCompletionChunkLike>,
  restore: (name: string, args: unknown) => unknown = (_name, args) => args,
): AsyncGenerator<ModelStreamEvent> {
  let text = "";
  const calls = new Map<number, { id: string; name: string; json: string }>();
  let count = 0;
  for await (const chunk of chunks) {
    count++;
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue; // the usage chunk has no choices
    const piece = delta.content ?? delta.refusal;
    if (piece) {
      text += piece;
      yield { type: "text-delta", text: piece };
    }
    for (const part of delta.tool_calls ?? []) {
      let call = calls.get(part.index);
      if (!call) {
        call = { id: "", name: "", json: "" };
        calls.set(part.index, call);
      }
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      const args = part.function?.arguments;
      if (args) {
        call.json += args;
        yield { type: "tool-input-delta", id: call.id, name: call.name, delta: args };
      }
    }
  }
  const toolCalls: ToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({
      id: call.id,
      name: call.name,
      arguments: restore(call.name, parseArguments(call.json)),
    }));
  yield { type: "response", response: { text, toolCalls, raw: { chunks: count } } };
}
