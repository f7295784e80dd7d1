import type {
  LoopMessage,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ReasoningPart,
  ToolCall,
  ToolDescriptor,
} from "@mcpkit/tool-loop";
import type { OpenAIToolOptions } from "./chat-completions.js";
import { toolOutputText } from "./error-text.js";
import {
  argumentRestorer,
  type FunctionSpec,
  functionSpecs,
  parseArguments,
  stringifyArguments,
} from "./internal/function-specs.js";
import { type ResponsesStreamEventLike, readResponsesStream } from "./responses-stream.js";

/** A Responses API function tool, as `responses.create({ tools })` takes it. */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

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

/** A `function_call_output` input item answering one function call. */
export interface ResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** The `provider` of the reasoning parts this bridge reads from, and sends back to, the Responses API. */
export const RESPONSES_REASONING_PROVIDER = "openai-responses";

/** A Responses API input item, as the adapter writes them. */
export type ResponsesInputItem =
  | { role: "system" | "user" | "assistant"; content: string }
  /** A reasoning item of an earlier turn, sent back as it was received. */
  | { type: "reasoning"; [key: string]: unknown }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | ResponsesFunctionCallOutput;

/**
 * Converts MCP tools (or the loop's model tools) to Responses API function tools:
 * `{ type: "function", name, description, parameters, strict }`.
 * @throws {StrictSchemaError} with `strict: true`, when a schema cannot be made strict.
 */
export function toResponsesTools(
  tools: readonly ToolDescriptor[],
  options: OpenAIToolOptions = {},
): ResponsesFunctionTool[] {
  return functionSpecs(tools, options.strict).map(responsesToolOf);
}

function responsesToolOf(spec: FunctionSpec): ResponsesFunctionTool {
  return {
    type: "function",
    name: spec.name,
    description: spec.description,
    parameters: { ...spec.parameters },
    strict: spec.strict,
  };
}

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

/**
 * The `function_call_output` item answering one call. A failed result's text starts with
 * `TOOL_ERROR_PREFIX` ("Error: "): the Responses API has no error flag.
 */
export function responsesToolOutput(result: {
  readonly toolCallId: string;
  readonly content: string;
  readonly isError: boolean;
}): ResponsesFunctionCallOutput {
  return { type: "function_call_output", call_id: result.toolCallId, output: toolOutputText(result) };
}

/**
 * Converts a provider-neutral transcript to Responses API input items: messages, then for each
 * assistant turn its reasoning items (this bridge's, sent back verbatim as reasoning models require
 * within a tool loop), its text and its `function_call` items, and `function_call_output` items for the
 * results. Reasoning parts of other providers are skipped.
 */
export function toResponsesInput(messages: readonly LoopMessage[]): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
      case "user":
        items.push({ role: message.role, content: message.content });
        break;
      case "assistant":
        for (const part of message.reasoning ?? []) {
          if (
            part.provider === RESPONSES_REASONING_PROVIDER &&
            typeof part.data === "object" &&
            part.data !== null
          )
            items.push(part.data as { type: "reasoning" });
        }
        if (message.content !== "") items.push({ role: "assistant", content: message.content });
        for (const call of message.toolCalls ?? []) {
          items.push({
            type: "function_call",
            call_id: call.id,
            name: call.name,
            arguments: stringifyArguments(call.arguments),
          });
        }
        break;
      case "tool":
        items.push(responsesToolOutput(message));
        break;
    }
  }
  return items;
}

/**
 * The part of an `openai` client the Responses adapter uses: `responses.create`, which resolves with a
 * response, or with an async iterable of events when the body says `stream: true`.
 */
export interface OpenAIResponsesClient {
  readonly responses: {
    create(
      body: any,
      options?: { signal?: AbortSignal | undefined } | undefined,
    ): PromiseLike<ResponseLike | AsyncIterable<ResponsesStreamEventLike>>;
  };
}

/** Options of {@link createOpenAIResponsesModel}. */
export interface OpenAIResponsesModelOptions extends OpenAIToolOptions {
  /** The `openai` client to drive. */
  readonly client: OpenAIResponsesClient;
  /** The model id. */
  readonly model: string;
  /** More request body fields (`instructions`, `reasoning`, `store`, `max_output_tokens`, ...). */
  readonly request?: Record<string, unknown> | undefined;
}

/**
 * A tool-loop `Model` that drives an `openai` client through the Responses API.
 *
 * Stateless: each `generate` sends the whole transcript as `input` (no `previous_response_id`), the
 * tools (`toResponsesTools`) and `parallel_tool_calls` when there are tools, with the run's signal.
 * `stream` sends the same with `stream: true` (`readResponsesStream`). Reasoning items of each turn are
 * kept on the assistant message and sent back before its function calls, as reasoning models require;
 * with `store: false`, ask for `include: ["reasoning.encrypted_content"]` in `request` so they carry
 * their content.
 */
export function createOpenAIResponsesModel(options: OpenAIResponsesModelOptions): Model {
  const prepare = (request: ModelRequest) => {
    const specs = functionSpecs(request.tools, options.strict);
    const body: Record<string, unknown> = {
      ...options.request,
      model: options.model,
      input: toResponsesInput(request.messages),
    };
    if (specs.length > 0) {
      body.tools = specs.map(responsesToolOf);
      body.parallel_tool_calls = request.parallelToolCalls;
    }
    return { body, restore: argumentRestorer(specs) };
  };
  return {
    // What the tool loop's GenAI spans say: `chat {modelId}`, gen_ai.provider.name and request.model.
    provider: "openai",
    modelId: options.model,
    async generate(request): Promise<ModelResponse> {
      const { body, restore } = prepare(request);
      const response = (await options.client.responses.create(body, {
        signal: request.signal,
      })) as ResponseLike;
      const toolCalls = readResponsesToolCalls(response).map((call) => ({
        ...call,
        arguments: restore(call.name, call.arguments),
      }));
      const reasoning = readResponsesReasoning(response);
      return {
        text: readResponsesText(response),
        toolCalls,
        ...(reasoning.length > 0 ? { reasoning } : {}),
        raw: response,
      };
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const { body, restore } = prepare(request);
      body.stream = true;
      const events = (await options.client.responses.create(body, {
        signal: request.signal,
      })) as AsyncIterable<ResponsesStreamEventLike>;
      yield* readResponsesStream(events, restore);
    },
  };
}
