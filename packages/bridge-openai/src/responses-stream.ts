import type { ModelStreamEvent } from "@mcpkit/tool-loop";
import {
  type ResponseLike,
  type ResponsesOutputItemLike,
  readResponsesReasoning,
  readResponsesText,
  readResponsesToolCalls,
} from "./responses-read.js";

/** One event of a streamed Responses API response (`stream: true`; the subset read). */
export interface ResponsesStreamEventLike {
  readonly type: string;
  readonly delta?: unknown;
  readonly output_index?: number;
  readonly item?: ResponsesOutputItemLike;
  readonly response?: unknown;
}

/**
 * Reads a streamed Responses API response: text and reasoning-summary deltas as they come, function
 * calls assembled from `response.function_call_arguments.delta` pieces (an item's `done` form wins when
 * it carries its arguments), reasoning items kept whole for the next turn, then one `response` event.
 *
 * `restore` rewrites parsed arguments (the strict-mode `null`s).
 */
export async function* readResponsesStream(
  events: AsyncIterable<ResponsesStreamEventLike>,
  restore: (name: string, args: unknown) => unknown = (_name, args) => args,
): AsyncGenerator<ModelStreamEvent> {
  const items = new Map<number, Record<string, unknown>>();
  let completed: unknown;
  for await (const event of events) {
    const index = event.output_index ?? -1;
    switch (event.type) {
      case "response.output_text.delta":
      case "response.refusal.delta":
        if (typeof event.delta === "string") yield { type: "text-delta", text: event.delta };
        break;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        if (typeof event.delta === "string") yield { type: "reasoning-delta", text: event.delta };
        break;
      case "response.output_item.added":
        if (event.item)
          items.set(
            index,
            event.item.type === "function_call" ? { ...event.item, arguments: "" } : { ...event.item },
          );
        break;
      case "response.function_call_arguments.delta": {
        const item = items.get(index);
        if (item && typeof event.delta === "string") {
          item.arguments = `${String(item.arguments ?? "")}${event.delta}`;
          yield {
            type: "tool-input-delta",
            id: String(item.call_id ?? ""),
            name: String(item.name ?? ""),
            delta: event.delta,
          };
        }
        break;
      }
      case "response.output_item.done":
        if (event.item) {
          const assembled = items.get(index);
          const done: Record<string, unknown> = { ...event.item };
          if (done.type === "function_call" && typeof done.arguments !== "string" && assembled)
            done.arguments = assembled.arguments;
          items.set(index, done);
        }
        break;
      case "response.completed":
      case "response.incomplete":
        completed = event.response;
        break;
      case "response.failed":
      case "error":
        throw new Error(`OpenAI Responses stream failed: ${JSON.stringify(event.response ?? event)}`);
    }
  }
  const output = [...items.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, item]) => item as unknown as ResponsesOutputItemLike);
  const response: ResponseLike = { output };
  const toolCalls = readResponsesToolCalls(response).map((call) => ({
    ...call,
    arguments: restore(call.name, call.arguments),
  }));
  const reasoning = readResponsesReasoning(response);
  yield {
    type: "response",
    response: {
      text: readResponsesText(response),
      toolCalls,
      ...(reasoning.length > 0 ? { reasoning } : {}),
      raw: completed ?? response,
    },
  };
}
