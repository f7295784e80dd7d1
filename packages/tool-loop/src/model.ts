import type { ToolErrorCode } from "./execute-tool-call.js";
import type { JsonSchema } from "./tool-source.js";

/**
 * A tool call a model asked for.
 *
 * `arguments` is what the model produced, parsed from JSON by the bridge that read it. It is usually an
 * object; when the model sent something else (invalid JSON, an array), the loop answers the call with an
 * error result instead of running it.
 */
export interface ToolCall {
  /** The provider's id of the call, echoed in its result (`tool_call_id`, `call_id`, `tool_use_id`). */
  readonly id: string;
  /** The tool's name as the model saw it (the local, possibly prefixed name). */
  readonly name: string;
  /** The arguments, as parsed; see the interface note. */
  readonly arguments: unknown;
}

/** The system prompt. Bridges move it where their API wants it (Anthropic's `system` parameter). */
export interface SystemMessage {
  readonly role: "system";
  readonly content: string;
}

/** A message from the user. */
export interface UserMessage {
  readonly role: "user";
  readonly content: string;
}

/**
 * A reasoning (thinking) block of an assistant turn, kept so the next request can carry it back.
 *
 * Providers with reasoning models require earlier reasoning to come back verbatim within a tool loop:
 * Anthropic's `thinking` blocks with their `signature` (and `redacted_thinking`), OpenAI Responses'
 * `reasoning` items (with `encrypted_content` when nothing is stored server-side). `data` is the
 * provider's own block, untouched; only the bridge named by `provider` reads it, others skip the block.
 */
export interface ReasoningPart {
  /** The bridge that produced the block (`"anthropic"`, `"openai-responses"`, `"ai-sdk"`). */
  readonly provider: string;
  /** The readable reasoning text (or summary); `""` when the provider sent none (redacted, encrypted). */
  readonly text: string;
  /** The provider's block as received, sent back as it was. */
  readonly data?: unknown;
}

/** What the model said: text, tool calls, or both. */
export interface AssistantMessage {
  readonly role: "assistant";
  /** The text of the answer; `""` when the model only called tools. */
  readonly content: string;
  /** The tool calls of this turn, in the model's order; absent or empty for a final answer. */
  readonly toolCalls?: readonly ToolCall[] | undefined;
  /** The turn's reasoning blocks, in the model's order, for bridges that must send them back. */
  readonly reasoning?: readonly ReasoningPart[] | undefined;
}

/** The result of one tool call, as the model receives it. */
export interface ToolResultMessage {
  readonly role: "tool";
  /** The id of the call this answers. */
  readonly toolCallId: string;
  /** The tool's local name (some providers want it beside the id). */
  readonly name: string;
  /** The result's text: its content, else the JSON of its structured content. */
  readonly content: string;
  /** True when the tool failed; bridges mark the result as an error in their provider's way. */
  readonly isError: boolean;
  /**
   * On an error result: why (`invalid-arguments`, `denied`, `tool-error`, …; see `ToolErrorCode`), for
   * the host and the app's own bridges. Providers are sent the text and `isError` only.
   */
  readonly errorCode?: ToolErrorCode | undefined;
  /** The tool's `structuredContent`, for bridges that can send JSON; never needed to read `content`. */
  readonly structured?: unknown;
}

/** One message of a provider-neutral transcript. */
export type LoopMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as offered to a model: its local name, description and argument schema. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** One request to a model. */
export interface ModelRequest {
  /** The whole transcript so far, oldest first. */
  readonly messages: readonly LoopMessage[];
  /** The tools the model may call. */
  readonly tools: readonly ModelTool[];
  /** Whether the model may ask for several tool calls in one turn. */
  readonly parallelToolCalls: boolean;
  /** Aborts the request; the model rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
}

/** One answer of a model. */
export interface ModelResponse {
  /** The text of the answer; `""` when there is none. */
  readonly text: string;
  /** The tool calls asked for; empty for a final answer. */
  readonly toolCalls: readonly ToolCall[];
  /** Reasoning blocks to carry into the next request (see {@link ReasoningPart}). */
  readonly reasoning?: readonly ReasoningPart[] | undefined;
  /** The provider's own response object, untouched, for callers who want usage or ids. */
  readonly raw?: unknown;
}

/**
 * One event of a streamed model turn. A stream ends with exactly one `response` event carrying the
 * whole turn (text, assembled and parsed tool calls, reasoning), which the loop trusts over the deltas.
 */
export type ModelStreamEvent =
  /** A piece of the answer's text. */
  | { readonly type: "text-delta"; readonly text: string }
  /** A piece of readable reasoning, where the provider streams it. */
  | { readonly type: "reasoning-delta"; readonly text: string }
  /**
   * A piece of a tool call's arguments as the provider sent it (JSON text, possibly cut anywhere).
   * `id` and `name` are known from the call's first piece on.
   */
  | {
      readonly type: "tool-input-delta";
      readonly id: string;
      readonly name: string;
      readonly delta: string;
    }
  /** The whole turn; the last event. */
  | { readonly type: "response"; readonly response: ModelResponse };

/**
 * A language model, as the tool loop drives it: one transcript in, one answer out.
 *
 * Each bridge supplies one for its provider's SDK client (`createOpenAIChatModel`,
 * `createAnthropicModel`, ...); `createScriptedModel` is a deterministic one for tests and demos.
 * An implementation must not keep state between calls that the transcript does not carry.
 */
export interface Model {
  /**
   * Asks the model for its next turn.
   * @throws whatever the provider's client throws; on abort, `signal.reason`.
   */
  generate(request: ModelRequest): Promise<ModelResponse>;
  /**
   * Asks for the next turn through the provider's streaming API. Optional: the loop falls back to
   * `generate` (one text delta per turn) for models without it.
   *
   * The iterable must end with one `response` event; tool-call arguments that arrived in pieces are
   * assembled and parsed there (text that is not JSON is kept as the string, for the loop to refuse).
   * Breaking out of the iteration, or aborting `request.signal`, cancels the provider request.
   * @throws whatever the provider's client throws; on abort, `signal.reason`.
   */
  stream?(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * Who serves the model, as OpenTelemetry's `gen_ai.provider.name` says it (`openai`, `anthropic`).
   * Optional: the loop's `chat` spans carry it when given.
   */
  readonly provider?: string;
  /** The model's id as sent to the provider: the loop's spans are named `chat {modelId}` when given. */
  readonly modelId?: string;
}
