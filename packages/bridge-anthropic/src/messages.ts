import {
  type AggregateToolsOptions,
  executeToolCall,
  type LoopMessage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type Toolbox,
  type ToolDescriptor,
  type ToolSources,
  toModelTools,
  toToolbox,
} from "@mcpkit/tool-loop";
import {
  ANTHROPIC_REASONING_PROVIDER,
  type AnthropicMessageLike,
  readAnthropicReasoning,
  readAnthropicText,
  readAnthropicToolCalls,
} from "./messages-read.js";
import { type AnthropicStreamEventLike, readAnthropicStream } from "./messages-stream.js";

/** A Messages API client tool, as `messages.create({ tools })` takes it. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
}

/** A `tool_result` content block answering one `tool_use`. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/** A request message as the adapter writes them. */
export type AnthropicMessageParam =
  | {
      role: "user";
      content: string | ({ type: "text"; text: string } | AnthropicToolResultBlock)[];
    }
  | {
      role: "assistant";
      content: (
        | { type: "thinking"; thinking: string; signature: string }
        | { type: "redacted_thinking"; data: string }
        | { type: "text"; text: string }
        | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
      )[];
    };

/**
 * Converts MCP tools (or the loop's model tools) to Messages API tools: `{ name, description,
 * input_schema }`. A tool without a schema takes no arguments (`{ type: "object", properties: {} }`);
 * a schema without `type` is given `type: "object"`, which the API requires.
 */
export function toAnthropicTools(tools: readonly ToolDescriptor[]): AnthropicTool[] {
  return toModelTools(tools).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: "object" },
  }));
}

/**
 * The `tool_result` block answering one call; a failed result carries `is_error: true` and its text,
 * so the model reads it as an error.
 */
export function anthropicToolResult(result: {
  readonly toolCallId: string;
  readonly content: string;
  readonly isError: boolean;
}): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = {
    type: "tool_result",
    tool_use_id: result.toolCallId,
    content: result.content,
  };
  if (result.isError) block.is_error = true;
  return block;
}

/** A provider-neutral transcript as the Messages API wants it: `system` apart, then the messages. */
export interface AnthropicConversation {
  /** The system messages, joined by a blank line; `undefined` when there are none. */
  system: string | undefined;
  messages: AnthropicMessageParam[];
}

/**
 * Converts a provider-neutral transcript to Messages API `system` and `messages`: system messages are
 * lifted into `system`; an assistant turn becomes its thinking blocks (this bridge's reasoning parts,
 * as received), then `text` and `tool_use` blocks; tool results (and a
 * user message right after them) share one user message, as the API requires.
 */
export function toAnthropicMessages(messages: readonly LoopMessage[]): AnthropicConversation {
  const system: string[] = [];
  const out: AnthropicMessageParam[] = [];
  const openUser = (): Extract<AnthropicMessageParam, { role: "user" }> & { content: unknown[] } => {
    const last = out.at(-1);
    if (last?.role === "user" && Array.isArray(last.content)) return last as never;
    const next = {
      role: "user" as const,
      content: [] as ({ type: "text"; text: string } | AnthropicToolResultBlock)[],
    };
    out.push(next);
    return next;
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        system.push(message.content);
        break;
      case "user": {
        const last = out.at(-1);
        if (last?.role === "user" && Array.isArray(last.content)) {
          openUser().content.push({ type: "text", text: message.content });
        } else {
          out.push({ role: "user", content: message.content });
        }
        break;
      }
      case "assistant": {
        const content: Extract<AnthropicMessageParam, { role: "assistant" }>["content"] = [];
        // Thinking first, as received: the API checks the signature and the order.
        for (const part of message.reasoning ?? []) {
          if (
            part.provider === ANTHROPIC_REASONING_PROVIDER &&
            typeof part.data === "object" &&
            part.data !== null
          )
            content.push(part.data as { type: "thinking"; thinking: string; signature: string });
        }
        if (message.content !== "") content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) {
          const input = typeof call.arguments === "object" && call.arguments !== null ? call.arguments : {};
          content.push({
            type: "tool_use",
            id: call.id,
            name: call.name,
            input: input as Record<string, unknown>,
          });
        }
        out.push({ role: "assistant", content });
        break;
      }
      case "tool":
        openUser().content.push(anthropicToolResult(message));
        break;
    }
  }
  return { system: system.length > 0 ? system.join("\n\n") : undefined, messages: out };
}

/**
 * The part of an `@anthropic-ai/sdk` client the adapter uses: `messages.create`, which resolves with a
 * message, or with an async iterable of events when the body says `stream: true`. An `Anthropic`
 * instance fits as it is.
 */
export interface AnthropicClient {
  readonly messages: {
    create(
      body: any,
      options?: { signal?: AbortSignal | undefined } | undefined,
    ): PromiseLike<AnthropicMessageLike | AsyncIterable<AnthropicStreamEventLike>>;
  };
}

/** Options of {@link createAnthropicModel}. */
export interface AnthropicModelOptions {
  /** The `@anthropic-ai/sdk` client to drive (its base URL, key and retries are its own). */
  readonly client: AnthropicClient;
  /** The model id, e.g. `"claude-sonnet-4-5"`. */
  readonly model: string;
  /** `max_tokens` of each request. Default 4096. */
  readonly maxTokens?: number | undefined;
  /** More request body fields (`temperature`, `thinking`, `metadata`, ...). */
  readonly request?: Record<string, unknown> | undefined;
}

/**
 * A tool-loop `Model` that drives an `@anthropic-ai/sdk` client through the Messages API.
 *
 * Each `generate` sends the transcript (`toAnthropicMessages`), the tools (`toAnthropicTools`) and,
 * when the loop forbids parallel calls, `tool_choice: { type: "auto", disable_parallel_tool_use: true }`,
 * with the run's abort signal. `stream` sends the same with `stream: true` (`readAnthropicStream`).
 * Thinking blocks (turn thinking on with `request: { thinking: { type: "enabled", budget_tokens } }`)
 * are kept on each assistant turn and sent back with their signatures, as the API requires in a loop.
 */
export function createAnthropicModel(options: AnthropicModelOptions): Model {
  const prepare = (request: ModelRequest) => {
    const conversation = toAnthropicMessages(request.messages);
    const body: Record<string, unknown> = {
      max_tokens: options.maxTokens ?? 4096,
      ...options.request,
      model: options.model,
      messages: conversation.messages,
    };
    if (conversation.system !== undefined) body.system = conversation.system;
    if (request.tools.length > 0) {
      body.tools = toAnthropicTools(request.tools);
      if (!request.parallelToolCalls) body.tool_choice = { type: "auto", disable_parallel_tool_use: true };
    }
    return body;
  };
  return {
    // What the tool loop's GenAI spans say: `chat {modelId}`, gen_ai.provider.name and request.model.
    provider: "anthropic",
    modelId: options.model,
    async generate(request): Promise<ModelResponse> {
      const message = (await options.client.messages.create(prepare(request), {
        signal: request.signal,
      })) as AnthropicMessageLike;
      const reasoning = readAnthropicReasoning(message);
      return {
        text: readAnthropicText(message),
        toolCalls: readAnthropicToolCalls(message),
        ...(reasoning.length > 0 ? { reasoning } : {}),
        raw: message,
      };
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const body = prepare(request);
      body.stream = true;
      const events = (await options.client.messages.create(body, {
        signal: request.signal,
      })) as AsyncIterable<AnthropicStreamEventLike>;
      yield* readAnthropicStream(events);
    },
  };
}

/** MCP tools for a hand-written Messages API loop. */
export interface AnthropicMcpTools {
  /** Pass as `tools` to `messages.create`. */
  readonly tools: AnthropicTool[];
  /** The toolbox behind them (local names → servers). */
  readonly toolbox: Toolbox;
  /**
   * Runs every `tool_use` of a response over MCP (concurrently) and returns the user message carrying
   * the `tool_result` blocks, in call order, to append to `messages`. Failures become `is_error` blocks,
   * never throws (except an abort, which rejects with `signal.reason`).
   */
  run(
    message: AnthropicMessageLike,
    options?: { readonly signal?: AbortSignal | undefined },
  ): Promise<{ role: "user"; content: AnthropicToolResultBlock[] }>;
}

/**
 * The tools of one or more MCP servers as Messages API tools, with a `run` that answers a response's
 * `tool_use` blocks over MCP: what a hand-written loop needs.
 *
 * `input` is an MCP client (any `ToolSource`), several (aggregated, see `aggregateTools`), or a toolbox
 * already aggregated. The tool list is read once, here.
 * @throws {ToolNameCollisionError} when aggregation finds two tools of one name.
 */
export async function mcpTools(
  input: Toolbox | ToolSources,
  options: AggregateToolsOptions = {},
): Promise<AnthropicMcpTools> {
  const toolbox = await toToolbox(input, options);
  return {
    tools: toAnthropicTools(toolbox.tools),
    toolbox,
    async run(message, runOptions = {}) {
      const calls = readAnthropicToolCalls(message);
      const content = await Promise.all(
        calls.map(async (call) => {
          const result = await executeToolCall(toolbox, call, { signal: runOptions.signal });
          return anthropicToolResult({
            toolCallId: call.id,
            content: result.content,
            isError: result.isError,
          });
        }),
      );
      return { role: "user", content };
    },
  };
}
