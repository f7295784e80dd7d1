import {
  type AggregateToolsOptions,
  executeToolCall,
  type Toolbox,
  type ToolCall,
  type ToolSources,
  toToolbox,
} from "@mcpkit/tool-loop";
import {
  type ChatCompletionsAssistantMessageLike,
  type ChatCompletionsFunctionTool,
  type ChatCompletionsToolMessage,
  chatCompletionsToolMessage,
  type OpenAIToolOptions,
  readChatCompletionsToolCalls,
  toChatCompletionsTools,
} from "./chat-completions.js";
import { argumentRestorer, functionSpecs } from "./internal/function-specs.js";
import {
  type ResponsesFunctionCallOutput,
  type ResponsesFunctionTool,
  responsesToolOutput,
  toResponsesTools,
} from "./responses.js";
import { type ResponseLike, type ResponsesOutputItemLike, readResponsesToolCalls } from "./responses-read.js";

/** Options of {@link mcpTools} and {@link mcpToolsRespond}: aggregation (when given sources) and strictness. */
export interface McpToolsOptions extends AggregateToolsOptions, OpenAIToolOptions {}

/** Options of the helpers' `run` methods. */
export interface RunToolCallsOptions {
  /** Aborts the calls in flight; `run` then rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
}

/** MCP tools for a hand-written Chat Completions loop. */
export interface ChatCompletionsMcpTools {
  /** Pass as `tools` to `chat.completions.create`. */
  readonly tools: ChatCompletionsFunctionTool[];
  /** The toolbox behind them (local names → servers). */
  readonly toolbox: Toolbox;
  /**
   * Runs every function tool call of an assistant message over MCP (concurrently) and returns the
   * `role: "tool"` messages to append, in call order. Failures become error messages, never throws
   * (except an abort).
   */
  run(
    message: ChatCompletionsAssistantMessageLike,
    options?: RunToolCallsOptions,
  ): Promise<ChatCompletionsToolMessage[]>;
}

/** MCP tools for a hand-written Responses API loop. */
export interface ResponsesMcpTools {
  /** Pass as `tools` to `responses.create`. */
  readonly tools: ResponsesFunctionTool[];
  /** The toolbox behind them. */
  readonly toolbox: Toolbox;
  /**
   * Runs every `function_call` of a response over MCP (concurrently) and returns the
   * `function_call_output` items to send as the next `input`, in call order.
   */
  run(
    response: ResponseLike | readonly ResponsesOutputItemLike[],
    options?: RunToolCallsOptions,
  ): Promise<ResponsesFunctionCallOutput[]>;
}

/**
 * The tools of one or more MCP servers as Chat Completions tools, with a `run` that answers the
 * model's tool calls over MCP: the two things a hand-written loop needs.
 *
 * `input` is an MCP client (any `ToolSource`), several (aggregated with prefixes, see `aggregateTools`),
 * or a toolbox already aggregated. The tool list is read once, here.
 * @throws {ToolNameCollisionError} when aggregation finds two tools of one name.
 * @throws {StrictSchemaError} with `strict: true`, when a schema cannot be made strict.
 */
export async function mcpTools(
  input: Toolbox | ToolSources,
  options: McpToolsOptions = {},
): Promise<ChatCompletionsMcpTools> {
  const toolbox = await toToolbox(input, options);
  const restore = argumentRestorer(functionSpecs(toolbox.tools, options.strict));
  return {
    tools: toChatCompletionsTools(toolbox.tools, options),
    toolbox,
    async run(message, runOptions = {}) {
      const calls = readChatCompletionsToolCalls(message);
      const results = await runAll(toolbox, calls, restore, runOptions.signal);
      return results.map(chatCompletionsToolMessage);
    },
  };
}

/**
 * The tools of one or more MCP servers as Responses API function tools, with a `run` that answers a
 * response's function calls over MCP. Same inputs and errors as {@link mcpTools}.
 */
export async function mcpToolsRespond(
  input: Toolbox | ToolSources,
  options: McpToolsOptions = {},
): Promise<ResponsesMcpTools> {
  const toolbox = await toToolbox(input, options);
  const restore = argumentRestorer(functionSpecs(toolbox.tools, options.strict));
  return {
    tools: toResponsesTools(toolbox.tools, options),
    toolbox,
    async run(response, runOptions = {}) {
      const calls = readResponsesToolCalls(response);
      const results = await runAll(toolbox, calls, restore, runOptions.signal);
      return results.map(responsesToolOutput);
    },
  };
}

async function runAll(
  toolbox: Toolbox,
  calls: readonly ToolCall[],
  restore: (name: string, args: unknown) => unknown,
  signal: AbortSignal | undefined,
): Promise<{ toolCallId: string; content: string; isError: boolean }[]> {
  return Promise.all(
    calls.map(async (call) => {
      const result = await executeToolCall(
        toolbox,
        { ...call, arguments: restore(call.name, call.arguments) },
        { signal },
      );
      return { toolCallId: call.id, content: result.content, isError: result.isError };
    }),
  );
}
