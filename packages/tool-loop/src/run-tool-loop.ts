import type { JsonSchemaValidator } from "@mcpkit/protocol";
import { isRefreshable, type Toolbox } from "./aggregate.js";
import type { LoopToolResult } from "./execute-tool-call.js";
import { runCalls } from "./internal/run-calls.js";
import { untilAborted } from "./internal/until-aborted.js";
import type { LoopEvent } from "./loop-events.js";
import type {
  AssistantMessage,
  LoopMessage,
  Model,
  ModelRequest,
  ModelResponse,
  ModelTool,
  ToolCall,
  ToolResultMessage,
} from "./model.js";
import { type LoopTelemetry, loopTelemetry, type ToolLoopTelemetryOption } from "./telemetry.js";
import type { ToolAnnotationsLike, ToolDescriptor } from "./tool-source.js";

/** The default `maxSteps`: model calls allowed in one run. */
export const DEFAULT_MAX_STEPS = 10;

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

/** What the approval hook and the timeout function learn about the tool a call names. */
export interface ToolCallInfo extends ToolCallContext {
  /** The source the tool comes from (the aggregation's source id, e.g. its prefix); unknown: `undefined`. */
  readonly server: string | undefined;
  /** The tool's name on its server (the local name when the toolbox does not say). */
  readonly tool: string;
  /** The tool's annotations as the server listed them (`readOnlyHint`, `destructiveHint`, ...). */
  readonly annotations: ToolAnnotationsLike | undefined;
  /** The tool as listed, or `undefined` when the name matches no tool. */
  readonly descriptor: ToolDescriptor | undefined;
}

/**
 * What the approval hook decides for one call:
 * - `"allow"`, `true` or nothing: run it as asked;
 * - `"deny"`, `false` or `{ deny: reason }`: do not run it; the model gets an error result saying the
 *   call was denied (and why);
 * - `{ arguments }`: run it with these arguments instead.
 */
export type ToolApproval =
  | "allow"
  | "deny"
  | boolean
  | undefined
  | { readonly deny: string }
  | { readonly arguments: Record<string, unknown> };

/** One step: a model call and the tool calls it led to. */
export interface LoopStep {
  /** 0-based. */
  readonly index: number;
  /** The model's answer. */
  readonly response: ModelResponse;
  /** The results of its tool calls, in call order (empty for the final answer). */
  readonly toolResults: readonly ToolResultMessage[];
}

/** Options of {@link runToolLoop} and `streamToolLoop`. */
export interface RunToolLoopOptions {
  /** The model to drive. */
  readonly model: Model;
  /**
   * The tools it may call (usually the result of `aggregateTools`). An aggregation whose sources report
   * a changed list (`tools/list_changed`) is re-listed before the next model call.
   */
  readonly tools: Toolbox;
  /** The conversation so far: a system prompt, the user's message, an earlier transcript. */
  readonly messages: readonly LoopMessage[];
  /** The most model calls in this run. Default 10. */
  readonly maxSteps?: number | undefined;
  /** Let the model ask for several calls per turn and run them concurrently. Default true. */
  readonly parallelToolCalls?: boolean | undefined;
  /** With `parallelToolCalls`, the most calls of one turn running at once. Default: no limit. */
  readonly maxConcurrency?: number | undefined;
  /**
   * Milliseconds a tool call may take, for all tools or per call (`undefined`: no limit). A call that
   * takes longer is cancelled at the server and answered with an error result; the run goes on.
   */
  readonly toolTimeout?: number | ((call: ToolCall, info: ToolCallInfo) => number | undefined) | undefined;
  /** Aborts the run: the model request and the tool calls in flight; the run rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Asked before each call of a listed tool with valid arguments (unknown tools and bad arguments are
   * answered with an error anyway). The calls of one turn are asked one at a time, in call order, before
   * any of them runs, so a prompt on a terminal is never interleaved. Without it, every call runs except
   * those of destructive tools (see `allowDestructive`).
   */
  readonly approve?:
    | ((call: ToolCall, info: ToolCallInfo) => ToolApproval | Promise<ToolApproval>)
    | undefined;
  /**
   * Without an `approve` hook, run tools whose annotations say `destructiveHint: true` (and not
   * `readOnlyHint: true`) unasked. Default false: such a call is not run and the model is told it needs
   * the user's approval, which this app cannot ask for (`errorCode: "approval-required"`). With an
   * `approve` hook the hook decides and this option is not read. (Annotations are the server's claims:
   * a tool that says nothing is not treated as destructive here.)
   */
  readonly allowDestructive?: boolean | undefined;
  /**
   * Checks each call's arguments against the tool's `inputSchema` before approval and before the server
   * is called, with this validator (`@mcpkit/protocol`'s seam); the model gets the validator's errors
   * (`arguments must have required property 'b'`) as an error result and the server never sees the call.
   * Default: `createJsonSchemaValidator()`; `false` leaves validation to the server.
   */
  readonly validator?: JsonSchemaValidator | false | undefined;
  /**
   * Receives every event of the run (see `LoopEvent`). When given, the model is driven through its
   * streaming API (`Model.stream`) where it has one, so text arrives in deltas.
   */
  readonly onEvent?: ((event: LoopEvent) => void) | undefined;
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
  /**
   * OpenTelemetry GenAI spans: `invoke_agent` around the run, `chat {model}` per model call,
   * `execute_tool {name}` per tool call (the MCP client span of the call is its child). Default: on when
   * `@opentelemetry/api` is installed; `false` turns it off. See `ToolLoopTelemetryOption`.
   */
  readonly telemetry?: ToolLoopTelemetryOption | undefined;
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
 * - Tool calls of one turn run concurrently when `parallelToolCalls` (the default; at most
 *   `maxConcurrency` at once), else one after another; either way their results enter the transcript in
 *   the model's call order.
 * - A result reaches the model as its content, or the JSON of its structured content when the content
 *   is empty. A result with `isError`, a tool that throws locally (server gone), an unknown tool name
 *   (made up, or gone from a live list), a denied call, a timeout and arguments that are not a JSON
 *   object all reach the model as error results carrying the message, so the model can correct itself;
 *   none of them ends the run.
 * - Reasoning blocks of each turn (`ModelResponse.reasoning`) stay on its assistant message, so the
 *   bridges send them back as their providers require.
 * - When the last allowed step still asks for tools, those calls run (so the transcript stays valid to
 *   continue), and the run ends with `finishReason: "max-steps"` without asking the model again.
 * - An abort rejects with `signal.reason` at once, even if the model or a tool ignores the signal, and
 *   is never reported to the model as a tool failure; the MCP calls in flight are cancelled.
 *
 * It does NOT retry model calls or trim the transcript. For an async iterable of events, see
 * `streamToolLoop`.
 * @throws what the model throws (provider errors are not tool results), or `signal.reason`.
 */
export function runToolLoop(options: RunToolLoopOptions): Promise<RunToolLoopResult> {
  const onEvent = options.onEvent;
  return driveToolLoop(options, onEvent ?? (() => {}), onEvent !== undefined);
}

/**
 * The loop itself, shared by `runToolLoop` and `streamToolLoop`: `emit` receives every event, and
 * `streaming` drives the model through `Model.stream` where it has one.
 * @internal
 */
export async function driveToolLoop(
  options: RunToolLoopOptions,
  emit: (event: LoopEvent) => void,
  streaming: boolean,
): Promise<RunToolLoopResult> {
  const telemetry = await loopTelemetry(options.telemetry);
  if (telemetry === undefined) return loop(options, emit, streaming, undefined);
  return telemetry.run(() => loop(options, emit, streaming, telemetry));
}

async function loop(
  options: RunToolLoopOptions,
  emit: (event: LoopEvent) => void,
  streaming: boolean,
  telemetry: LoopTelemetry | undefined,
): Promise<RunToolLoopResult> {
  const { model, tools, signal } = options;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`maxSteps must be a positive integer, got ${String(maxSteps)}`);
  }
  const maxConcurrency = options.maxConcurrency ?? Number.POSITIVE_INFINITY;
  if (!(maxConcurrency >= 1)) {
    throw new RangeError(`maxConcurrency must be at least 1, got ${String(maxConcurrency)}`);
  }
  const parallelToolCalls = options.parallelToolCalls ?? true;
  const messages: LoopMessage[] = [...options.messages];
  const steps: LoopStep[] = [];

  for (let index = 0; ; index++) {
    signal?.throwIfAborted();
    // A server said its list changed: list again now, so this model call sees the new tools.
    if (isRefreshable(tools) && tools.stale) {
      const changed = await untilAborted(tools.refresh({ signal }), signal);
      if (changed) emit({ type: "tools-changed", step: index, tools: tools.tools.map((tool) => tool.name) });
    }
    const request: ModelRequest = {
      messages: [...messages],
      tools: toModelTools(tools.tools),
      parallelToolCalls,
      signal,
    };
    const asked =
      telemetry === undefined
        ? askModel(model, request, index, emit, streaming)
        : telemetry.chat(model, () => askModel(model, request, index, emit, streaming));
    const response = await untilAborted(asked, signal);
    const assistant: AssistantMessage = { role: "assistant", content: response.text };
    if (response.toolCalls.length > 0) Object.assign(assistant, { toolCalls: response.toolCalls });
    if (response.reasoning && response.reasoning.length > 0)
      Object.assign(assistant, { reasoning: response.reasoning });
    messages.push(assistant);

    let toolResults: ToolResultMessage[] = [];
    if (response.toolCalls.length > 0) {
      toolResults = await runCalls(
        options,
        response.toolCalls,
        index,
        emit,
        parallelToolCalls ? maxConcurrency : 1,
        telemetry,
      );
      messages.push(...toolResults);
    }
    const step: LoopStep = { index, response, toolResults };
    steps.push(step);
    emit({ type: "step-finish", step: index, detail: step });
    await options.onStep?.(step);

    const done = response.toolCalls.length === 0 ? "stop" : index + 1 >= maxSteps ? "max-steps" : undefined;
    if (done) {
      const result: RunToolLoopResult = { text: response.text, messages, steps, finishReason: done };
      emit({ type: "finish", result });
      return result;
    }
  }
}

async function askModel(
  model: Model,
  request: ModelRequest,
  step: number,
  emit: (event: LoopEvent) => void,
  streaming: boolean,
): Promise<ModelResponse> {
  if (!streaming || !model.stream) {
    const response = await model.generate(request);
    // A model without a streaming API still tells a streaming caller what it said, in one piece each.
    if (streaming) {
      for (const part of response.reasoning ?? [])
        if (part.text !== "") emit({ type: "reasoning-delta", step, text: part.text });
      if (response.text !== "") emit({ type: "text-delta", step, text: response.text });
    }
    return response;
  }
  let response: ModelResponse | undefined;
  for await (const event of model.stream(request)) {
    switch (event.type) {
      case "response":
        response = event.response;
        break;
      case "tool-input-delta":
        emit({ type: "tool-input-delta", step, id: event.id, name: event.name, delta: event.delta });
        break;
      default:
        emit({ type: event.type, step, text: event.text });
    }
  }
  if (!response) throw new Error("The model's stream ended without a response event");
  return response;
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
