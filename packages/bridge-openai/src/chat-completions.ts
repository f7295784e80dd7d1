import type {
  LoopMessage,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolCall,
  ToolDescriptor,
} from "@mcpkit/tool-loop";
import { type ChatCompletionChunkLike, readChatCompletionsStream } from "./chat-completions-stream.js";
import { toolOutputText } from "./error-text.js";
import {
  argumentRestorer,
  type FunctionSpec,
  functionSpecs,
  parseArguments,
  type StrictOption,
  stringifyArguments,
} from "./internal/function-specs.js";

/** A Chat Completions function tool, as `chat.completions.create({ tools })` takes it. */
export interface ChatCompletionsFunctionTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    strict?: boolean;
  };
}

/** A tool call in an assistant message (the subset read; `custom` tool calls have no `function`). */
export interface ChatCompletionsToolCallLike {
  readonly id: string;
  readonly type?: string;
  readonly function?: { readonly name: string; readonly arguments: string };
}

/** An assistant message of a Chat Completions response (the subset read). */
export interface ChatCompletionsAssistantMessageLike {
  readonly content?: string | null;
  readonly refusal?: string | null;
  readonly tool_calls?: readonly ChatCompletionsToolCallLike[] | null;
}

/** A Chat Completions response (the subset read). */
export interface ChatCompletionLike {
  readonly choices: readonly { readonly message: ChatCompletionsAssistantMessageLike }[];
}

/** A `role: "tool"` message answering one tool call. */
export interface ChatCompletionsToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** A Chat Completions request message, as the adapter writes them. */
export type ChatCompletionsMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | ChatCompletionsToolMessage;

/** Options of the tool converters. */
export interface OpenAIToolOptions {
  /**
   * Offer tools in strict mode (structured outputs): `true` rewrites every schema with
   * `toStrictJsonSchema` (and throws if one cannot be strict), `"auto"` does so for the schemas that can
   * be and leaves the others non-strict, `false` (default) sends schemas as the servers wrote them.
   */
  readonly strict?: StrictOption | undefined;
}

/**
 * Converts MCP tools (or the loop's model tools) to Chat Completions function tools:
 * `{ type: "function", function: { name, description, parameters, strict? } }`.
 *
 * Names are used as given: pass tools from `aggregateTools`, whose names are already provider-valid.
 * @throws {StrictSchemaError} with `strict: true`, when a schema cannot be made strict.
 */
export function toChatCompletionsTools(
  tools: readonly ToolDescriptor[],
  options: OpenAIToolOptions = {},
): ChatCompletionsFunctionTool[] {
  return functionSpecs(tools, options.strict).map(chatToolOf);
}

function chatToolOf(spec: FunctionSpec): ChatCompletionsFunctionTool {
  return {
    type: "function",
    function: {
      name: spec.name,
      description: spec.description,
      parameters: { ...spec.parameters },
      ...(spec.strict ? { strict: true } : {}),
    },
  };
}

/**
 * Reads the function tool calls of a Chat Completions assistant message (`choices[0].message`).
 *
 * Arguments are parsed from JSON; text that is not JSON is kept as the string, so the loop answers
 * the call with an error the model can correct. Calls of `custom` tools are skipped.
 */
export function readChatCompletionsToolCalls(message: ChatCompletionsAssistantMessageLike): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    if (!call.function) continue;
    calls.push({ id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) });
  }
  return calls;
}

/**
 * The `role: "tool"` message answering one tool call. A failed result's text starts with
 * `TOOL_ERROR_PREFIX` ("Error: "): Chat Completions has no error flag.
 */
export function chatCompletionsToolMessage(result: {
  readonly toolCallId: string;
  readonly content: string;
  readonly isError: boolean;
}): ChatCompletionsToolMessage {
  return { role: "tool", tool_call_id: result.toolCallId, content: toolOutputText(result) };
}

/**
 * Converts a provider-neutral transcript to Chat Completions messages: system, user, assistant (with
 * `tool_calls`, arguments re-encoded as JSON) and tool messages, in order.
 */
export function toChatCompletionsMessages(messages: readonly LoopMessage[]): ChatCompletionsMessage[] {
  return messages.map((message): ChatCompletionsMessage => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: "assistant", content: message.content };
        return {
          role: "assistant",
          content: message.content === "" ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: stringifyArguments(call.arguments) },
          })),
        };
      }
      default:
        return chatCompletionsToolMessage(message);
    }
  });
}

/**
 * The part of an `openai` client the Chat Completions adapter uses: `chat.completions.create`, which
 * resolves with a completion, or with an async iterable of chunks when the body says `stream: true`.
 * An `OpenAI` instance of `openai` 6 fits as it is (and any client with the same method).
 */
export interface OpenAIChatClient {
  readonly chat: {
    readonly completions: {
      create(
        body: any,
        options?: { signal?: AbortSignal | undefined } | undefined,
      ): PromiseLike<ChatCompletionLike | AsyncIterable<ChatCompletionChunkLike>>;
    };
  };
}

/** Options of {@link createOpenAIChatModel}. */
export interface OpenAIChatModelOptions extends OpenAIToolOptions {
  /** The `openai` client to drive (its base URL, key and retries are its own). */
  readonly client: OpenAIChatClient;
  /** The model id, e.g. `"gpt-5"`. */
  readonly model: string;
  /** More request body fields (`temperature`, `max_completion_tokens`, `reasoning_effort`, ...). */
  readonly request?: Record<string, unknown> | undefined;
}

/**
 * A tool-loop `Model` that drives an `openai` client through Chat Completions.
 *
 * Each `generate` sends the whole transcript (`toChatCompletionsMessages`), the tools
 * (`toChatCompletionsTools`, strict if asked) and `parallel_tool_calls` when there are tools, with the
 * run's abort signal, and reads the first choice. `stream` sends the same body with `stream: true` and
 * reads the chunks with `readChatCompletionsStream` (tool-call arguments assembled from their pieces).
 * With strict tools, the `null`s the model sends for optional properties are removed before the call
 * reaches the server. Chat Completions has no reasoning to carry between turns.
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): Model {
  const prepare = (request: ModelRequest) => {
    const specs = functionSpecs(request.tools, options.strict);
    const body: Record<string, unknown> = {
      ...options.request,
      model: options.model,
      messages: toChatCompletionsMessages(request.messages),
    };
    if (specs.length > 0) {
      body.tools = specs.map(chatToolOf);
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
      const completion = (await options.client.chat.completions.create(body, {
        signal: request.signal,
      })) as ChatCompletionLike;
      const message = completion.choices[0]?.message;
      if (!message) throw new Error("OpenAI Chat Completions response has no choices");
      const toolCalls = readChatCompletionsToolCalls(message).map((call) => ({
        ...call,
        arguments: restore(call.name, call.arguments),
      }));
      return { text: message.content ?? message.refusal ?? "", toolCalls, raw: completion };
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const { body, restore } = prepare(request);
      body.stream = true;
      const chunks = (await options.client.chat.completions.create(body, {
        signal: request.signal,
      })) as AsyncIterable<ChatCompletionChunkLike>;
      yield* readChatCompletionsStream(chunks, restore);
    },
  };
}
