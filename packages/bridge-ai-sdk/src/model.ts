import type {
  LoopMessage,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelTool,
  ReasoningPart,
  ToolCall,
} from "@mcpkit/tool-loop";
import { aiSdkJsonSchema } from "./tool-set.js";

/** The `provider` of the reasoning parts this bridge reads from, and sends back to, the AI SDK. */
export const AI_SDK_REASONING_PROVIDER = "ai-sdk";

/** A part of `streamText(...).fullStream` (the subset read). */
export interface AiSdkStreamPartLike {
  readonly type: string;
  readonly id?: string;
  readonly text?: string;
  readonly delta?: string;
  readonly toolName?: string;
  readonly toolCallId?: string;
  readonly input?: unknown;
  readonly error?: unknown;
  readonly providerMetadata?: unknown;
}

/** `streamText` of `ai` (the call and the result's `fullStream`), typed structurally. */
export type AiSdkStreamText = (options: any) => { readonly fullStream: AsyncIterable<AiSdkStreamPartLike> };

/** `generateText` of `ai` (the subset of its result read), typed structurally. */
export type AiSdkGenerateText = (options: any) => PromiseLike<{
  readonly text: string;
  readonly toolCalls: readonly {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: unknown;
  }[];
  readonly reasoning?: readonly { readonly text: string; readonly providerMetadata?: unknown }[];
}>;

/** Options of {@link createAiSdkModel}. */
export interface AiSdkModelOptions {
  /** The AI SDK language model (`openai("gpt-5")`, `anthropic("claude-…")`, ...). */
  readonly model: unknown;
  /** `streamText` from `ai`: gives the model its `stream` (this package imports nothing from `ai`). */
  readonly streamText: AiSdkStreamText;
  /** `generateText` from `ai`, for `generate`; without it, `generate` collects a streamed turn. */
  readonly generateText?: AiSdkGenerateText | undefined;
  /** More call settings (`temperature`, `providerOptions`, `maxOutputTokens`, ...). */
  readonly request?: Record<string, unknown> | undefined;
}

/**
 * A tool-loop `Model` on the AI SDK: one `streamText` (or `generateText`) step per turn, with the tools
 * offered **without** `execute`, so the AI SDK returns the calls and `runToolLoop` / `streamToolLoop`
 * run them over MCP with their approvals, timeouts and live lists. Use it instead of `mcpToolSet` when
 * you want the tool loop's controls on any AI SDK provider.
 *
 * Reasoning parts come back with their provider metadata (an Anthropic signature, an OpenAI reasoning
 * item id and encrypted content) and are sent back as `providerOptions` on the next turn, the way the
 * AI SDK's own multi-step loop does. An `error` part rejects; an abort rejects with `signal.reason`.
 */
export function createAiSdkModel(options: AiSdkModelOptions): Model {
  const callOptions = (request: ModelRequest) => ({
    ...options.request,
    model: options.model,
    messages: toAiSdkMessages(request.messages),
    ...(request.tools.length > 0 ? { tools: toAiSdkTools(request.tools) } : {}),
    abortSignal: request.signal,
    maxRetries: (options.request?.maxRetries as number | undefined) ?? 0,
  });
  const stream = async function* (request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const result = options.streamText(callOptions(request));
    let text = "";
    const calls: ToolCall[] = [];
    const reasoning = new Map<string, { text: string; metadata: unknown }>();
    const names = new Map<string, string>();
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta":
          text += part.text ?? "";
          if (part.text) yield { type: "text-delta", text: part.text };
          break;
        case "reasoning-start":
        case "reasoning-delta":
        case "reasoning-end": {
          const id = part.id ?? "";
          const entry = reasoning.get(id) ?? { text: "", metadata: undefined };
          reasoning.set(id, entry);
          if (part.providerMetadata !== undefined) entry.metadata = part.providerMetadata;
          if (part.type === "reasoning-delta" && part.text) {
            entry.text += part.text;
            yield { type: "reasoning-delta", text: part.text };
          }
          break;
        }
        case "tool-input-start":
          names.set(part.id ?? "", part.toolName ?? "");
          break;
        case "tool-input-delta":
          if (part.delta)
            yield {
              type: "tool-input-delta",
              id: part.id ?? "",
              name: names.get(part.id ?? "") ?? "",
              delta: part.delta,
            };
          break;
        case "tool-call":
          calls.push({ id: part.toolCallId ?? "", name: part.toolName ?? "", arguments: part.input ?? {} });
          break;
        case "error":
          throw part.error;
        case "abort":
          request.signal?.throwIfAborted();
          throw new Error("The AI SDK stream was aborted");
      }
    }
    const parts = [...reasoning.values()].map((entry) => reasoningPart(entry.text, entry.metadata));
    yield {
      type: "response",
      response: { text, toolCalls: calls, ...(parts.length > 0 ? { reasoning: parts } : {}) },
    };
  };
  return {
    async generate(request): Promise<ModelResponse> {
      if (!options.generateText) {
        let response: ModelResponse | undefined;
        for await (const event of stream(request)) if (event.type === "response") response = event.response;
        return response!;
      }
      const result = await options.generateText(callOptions(request));
      const parts = (result.reasoning ?? []).map((part) => reasoningPart(part.text, part.providerMetadata));
      return {
        text: result.text,
        toolCalls: result.toolCalls.map((call) => ({
          id: call.toolCallId,
          name: call.toolName,
          arguments: call.input,
        })),
        ...(parts.length > 0 ? { reasoning: parts } : {}),
        raw: result,
      };
    },
    stream,
  };
}

function reasoningPart(text: string, metadata: unknown): ReasoningPart {
  return { provider: AI_SDK_REASONING_PROVIDER, text, data: { providerMetadata: metadata } };
}

/** The loop's tools as an AI SDK `ToolSet` without `execute`: the AI SDK hands the calls back. */
export function toAiSdkTools(
  tools: readonly ModelTool[],
): Record<string, { description: string; inputSchema: any }> {
  const set: Record<string, { description: string; inputSchema: any }> = {};
  for (const tool of tools)
    set[tool.name] = { description: tool.description, inputSchema: aiSdkJsonSchema(tool.inputSchema) };
  return set;
}

/**
 * Converts a provider-neutral transcript to AI SDK `ModelMessage`s: system and user messages as they
 * are, an assistant turn as its reasoning parts (this bridge's, with their provider metadata as
 * `providerOptions`), text and `tool-call` parts, and tool results as `tool` messages (`error-text`
 * for failures).
 */
export function toAiSdkMessages(messages: readonly LoopMessage[]): unknown[] {
  const out: { role: string; content: unknown }[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
      case "user":
        out.push({ role: message.role, content: message.content });
        break;
      case "assistant": {
        const content: unknown[] = [];
        for (const part of message.reasoning ?? []) {
          if (part.provider !== AI_SDK_REASONING_PROVIDER) continue;
          const metadata = (part.data as { providerMetadata?: unknown } | undefined)?.providerMetadata;
          content.push({
            type: "reasoning",
            text: part.text,
            ...(metadata ? { providerOptions: metadata } : {}),
          });
        }
        if (message.content !== "") content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({
            type: "tool-call",
            toolCallId: call.id,
            toolName: call.name,
            input: call.arguments,
          });
        }
        out.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const part = {
          type: "tool-result",
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: { type: message.isError ? "error-text" : "text", value: message.content },
        };
        const last = out.at(-1);
        if (last?.role === "tool") (last.content as unknown[]).push(part);
        else out.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return out;
}
