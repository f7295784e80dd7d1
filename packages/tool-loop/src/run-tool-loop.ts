import type { Toolbox } from "./aggregate.js";
import { UnknownToolError } from "./errors.js";
import type {
  AssistantMessage,
  LoopMessage,
  Model,
  ModelResponse,
  ModelTool,
  ToolCall,
  ToolResultMessage,
} from "./model.js";
import { toolResultText } from "./result-text.js";
import type { ToolCallOutcome, ToolDescriptor } from "./tool-source.js";

/** The default `maxSteps`: model calls allowed in one run. */
export const DEFAULT_MAX_STEPS = 10;

/** A tool result as the loop hands it to the model, with where it came from. */
export interface LoopToolResult {
  /** The text the model receives. */
  readonly content: string;
  /** True when the model should read `content` as an error. */
  readonly isError: boolean;
  /** The tool's `structuredContent`, if any. */
  readonly structured?: unknown;
  /** The tool's own outcome, when the tool ran and answered. */
  readonly outcome?: ToolCallOutcome | undefined;
  /** What was thrown, when the call failed locally (server gone, unknown tool, bad arguments). */
  readonly error?: unknown;
}

/** What `beforeToolCall` may decide for one call; `undefined` runs it as asked. */
export type ToolCallDecision =
  /** Run the tool with these arguments instead of the model's. */
  | { readonly arguments: Record<string, unknown> }
  /** Do not run the tool; the model receives this result (a refusal, a cached answer). */
  | {
      readonly result: {
        readonly content: string;
        readonly isError?: boolean;
        readonly structured?: unknown;
      };
    };

/** What the tool-call hooks learn about the call's place in the run. */
export interface ToolCallContext {
  /** The step (0-based model call) whose answer asked for the call. */
  readonly step: number;
  /** The run's abort signal, if any. */
  readonly signal: AbortSignal | undefined;
}

/** One step: a model call and the tool calls it led to. */
export interface LoopStep {
  /** 0-based. */
  readonly index: number;
  /** The model's answer. */
  readonly response: ModelResponse;
  /** The results of its tool calls, in call order (empty for the final answer). */
  readonly toolResults: readonly ToolResultMessage[];
}

/** Options of {@link runToolLoop}. */
export interface RunToolLoopOptions {
  /** The model to drive. */
  readonly model: Model;
  /** The tools it may call (usually the result of `aggregateTools`). */
  readonly tools: Toolbox;
  /** The conversation so far: a system prompt, the user's message, an earlier transcript. */
  readonly messages: readonly LoopMessage[];
  /** The most model calls in this run. Default 10. */
  readonly maxSteps?: number | undefined;
  /** Let the model ask for several calls per turn and run them concurrently. Default true. */
  readonly parallelToolCalls?: boolean | undefined;
  /** Aborts the run: the model request and the tool calls in flight; the run rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
  /** Called after each step, once its tool results are in the transcript. Awaited. */
  readonly onStep?: ((step: LoopStep) => void | Promise<void>) | undefined;
  /** Called before each tool call; may change its arguments or answer it without running the tool. */
  readonly beforeToolCall?:
    | ((
        call: ToolCall,
        context: ToolCallContext,
      ) => ToolCallDecision | undefined | Promise<ToolCallDecision | undefined>)
    | undefined;
  /** Called after each tool call; a returned result replaces the one the model would receive. */
  readonly afterToolCall?:
    | ((
        call: ToolCall,
        result: LoopToolResult,
        context: ToolCallContext,
      ) => LoopToolResult | undefined | Promise<LoopToolResult | undefined>)
    | undefined;
}

/** How a run ended. */
export type FinishReason =
  /** The model answered without calling a tool. */
  | "stop"
  /** `maxSteps` model calls were made and the last one still called tools. */
  | "max-steps";

/** The outcome of {@link runToolLoop}. */
export interface RunToolLoopResult {
  /** The text of the model's last answer (`""` if it had none). */
  readonly text: string;
  /** The whole transcript: the messages given, then every assistant turn and tool result. */
  readonly messages: readonly LoopMessage[];
  /** Each step, in order. */
  readonly steps: readonly LoopStep[];
  /** Why the run ended. */
  readonly finishReason: FinishReason;
}

/**
 * Runs a model with tools until it answers: asks the model, runs the tool calls it asks for, returns the
 * results to it, and repeats until it answers without a tool call or `maxSteps` model calls were made.
 *
 * Guarantees:
 * - Tool calls of one turn run concurrently when `parallelToolCalls` (the default), else one after
 *   another; either way their results enter the transcript in the model's call order.
 * - A result reaches the model as its content, or the JSON of its structured content when the content
 *   is empty. A result with `isError`, a tool that throws locally (server gone), an unknown tool name and
 *   arguments that are not a JSON object all reach the model as error results carrying the message, so
 *   the model can correct itself; none of them ends the run.
 * - When the last allowed step still asks for tools, those calls run (so the transcript stays valid to
 *   continue), and the run ends with `finishReason: "max-steps"` without asking the model again.
 * - An abort rejects with `signal.reason` at once, even if the model or a tool ignores the signal, and
 *   is never reported to the model as a tool failure.
 *
 * It does NOT retry model calls, trim the transcript, or stream.
 * @throws what the model throws (provider errors are not tool results), or `signal.reason`.
 */
export async function runToolLoop(options: RunToolLoopOptions): Promise<RunToolLoopResult> {
  const { model, tools, signal } = options;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`maxSteps must be a positive integer, got ${String(maxSteps)}`);
  }
  const parallelToolCalls = options.parallelToolCalls ?? true;
  const modelTools = toModelTools(tools.tools);
  const messages: LoopMessage[] = [...options.messages];
  const steps: LoopStep[] = [];

  for (let index = 0; ; index++) {
    signal?.throwIfAborted();
    const response = await untilAborted(
      model.generate({ messages: [...messages], tools: modelTools, parallelToolCalls, signal }),
      signal,
    );
    const assistant: AssistantMessage =
      response.toolCalls.length > 0
        ? { role: "assistant", content: response.text, toolCalls: response.toolCalls }
        : { role: "assistant", content: response.text };
    messages.push(assistant);

    const context: ToolCallContext = { step: index, signal };
    let toolResults: ToolResultMessage[] = [];
    if (response.toolCalls.length > 0) {
      if (parallelToolCalls) {
        toolResults = await Promise.all(response.toolCalls.map((call) => runCall(options, call, context)));
      } else {
        for (const call of response.toolCalls) toolResults.push(await runCall(options, call, context));
      }
      messages.push(...toolResults);
    }
    const step: LoopStep = { index, response, toolResults };
    steps.push(step);
    await options.onStep?.(step);

    if (response.toolCalls.length === 0) {
      return { text: response.text, messages, steps, finishReason: "stop" };
    }
    if (index + 1 >= maxSteps) {
      return { text: response.text, messages, steps, finishReason: "max-steps" };
    }
  }
}

/**
 * The tools of a toolbox as a model is offered them: name, description (the title when there is no
 * description) and input schema (an empty object schema when the tool has none).
 */
export function toModelTools(tools: readonly ToolDescriptor[]): ModelTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema ?? { type: "object", properties: {} },
  }));
}

async function runCall(
  options: RunToolLoopOptions,
  call: ToolCall,
  context: ToolCallContext,
): Promise<ToolResultMessage> {
  const { signal } = options;
  signal?.throwIfAborted();
  let result: LoopToolResult | undefined;
  let effective = call;
  if (isPlainObject(call.arguments)) {
    const decision = await options.beforeToolCall?.(call, context);
    if (decision && "result" in decision) {
      result = {
        content: decision.result.content,
        isError: decision.result.isError === true,
        structured: decision.result.structured,
      };
    } else if (decision) {
      effective = { ...call, arguments: decision.arguments };
    }
  }
  result ??= await executeToolCall(options.tools, effective, { signal });
  const replaced = await options.afterToolCall?.(call, result, context);
  if (replaced) result = replaced;
  return toolResultMessage(call, result);
}

/** Options of {@link executeToolCall}. */
export interface ExecuteToolCallOptions {
  /** Aborts the call; `executeToolCall` then rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs one tool call a model asked for and turns every way it can end into a result for the model.
 *
 * This is the step `runToolLoop` takes for each call, exported for hand-written loops and the bridges'
 * helpers: arguments that are not a JSON object, an unknown tool name, a tool that throws locally (server
 * gone) and a result with `isError` all become `isError: true` results carrying a message the model can
 * act on. Only an abort rejects (with `signal.reason`), even if the tool ignores the signal.
 */
export async function executeToolCall(
  tools: Toolbox,
  call: ToolCall,
  options: ExecuteToolCallOptions = {},
): Promise<LoopToolResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  if (!isPlainObject(call.arguments)) {
    return {
      content: `Invalid arguments for tool "${call.name}": expected a JSON object, got ${describeValue(call.arguments)}`,
      isError: true,
    };
  }
  try {
    const outcome = await untilAborted(tools.call(call.name, call.arguments, { signal }), signal);
    return {
      content: toolResultText(outcome),
      isError: outcome.isError === true,
      structured: outcome.structured,
      outcome,
    };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof UnknownToolError) {
      const known = tools.tools.map((tool) => tool.name).join(", ");
      return { content: `${error.message}. Available tools: ${known || "(none)"}`, isError: true, error };
    }
    const detail = error instanceof Error ? error.message : String(error);
    return { content: `Tool "${call.name}" failed: ${detail}`, isError: true, error };
  }
}

/** The transcript message answering `call` with `result`. */
export function toolResultMessage(call: ToolCall, result: LoopToolResult): ToolResultMessage {
  const message: ToolResultMessage = {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: result.content,
    isError: result.isError,
  };
  return result.structured === undefined ? message : { ...message, structured: result.structured };
}

// Rejects with signal.reason as soon as the signal fires, even if `promise` ignores it.
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)}`;
  if (Array.isArray(value)) return "an array";
  return value === null ? "null" : typeof value;
}
