import type {
  LoopMessage,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolDescriptor,
} from "@mcpkit/tool-loop";
import type { OpenAIToolOptions } from "./chat-completions.js";
import { toolOutputText } from "./error-text.js";
import {
  argumentRestorer,
  type FunctionSpec,
  functionSpecs,
  stringifyArguments,
} from "./internal/function-specs.js";
import {
  RESPONSES_REASONING_PROVIDER,
  type ResponseLike,
  readResponsesReasoning,
  readResponsesText,
  readResponsesToolCalls,
} from "./responses-read.js";
import { type ResponsesStreamEventLike, readResponsesStream } from "./responses-stream.js";

/** A Responses API function tool, as `responses.create({ tools })` takes it. */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** A `function_call_output` input item answering one function call. */
export interface ResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

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
