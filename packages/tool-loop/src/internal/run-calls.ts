// The tool calls of one model turn: planned one at a time in call order (arguments checked against the
// tool's schema, the approval asked or the destructive default applied), then run with the concurrency
// the run allows, each answered with one result for the model.
import { toolUiResource } from "../app-tools.js";
import { argumentCheckFor } from "../argument-check.js";
import {
  executeToolCall,
  type LoopToolResult,
  type ToolErrorCode,
  toolResultMessage,
} from "../execute-tool-call.js";
import type { LoopEvent, ToolApprovalOutcome } from "../loop-events.js";
import type { ToolCall, ToolResultMessage } from "../model.js";
import type { RunToolLoopOptions, ToolCallContext, ToolCallInfo } from "../run-tool-loop.js";
import type { LoopTelemetry } from "../telemetry.js";
import type { ToolDescriptor } from "../tool-source.js";
import { isPlainObject, mapLimited, untilAborted } from "./until-aborted.js";

interface PlannedCall {
  readonly requested: ToolCall;
  readonly call: ToolCall;
  readonly info: ToolCallInfo;
  readonly approval: ToolApprovalOutcome;
  readonly denial?: string | undefined;
  /** Answered without running: the model's arguments do not fit, or a destructive call has no one to ask. */
  readonly answer?: { readonly content: string; readonly errorCode: ToolErrorCode } | undefined;
}

/** A destructive tool by its annotations: `destructiveHint: true` and not `readOnlyHint: true`. */
function isDestructive(info: ToolCallInfo): boolean {
  return info.annotations?.destructiveHint === true && info.annotations.readOnlyHint !== true;
}

/** Plans and runs the calls of one turn; their result messages come back in call order. */
export async function runCalls(
  options: RunToolLoopOptions,
  calls: readonly ToolCall[],
  step: number,
  emit: (event: LoopEvent) => void,
  concurrency: number,
  telemetry: LoopTelemetry | undefined,
): Promise<ToolResultMessage[]> {
  const { signal } = options;
  const byName = new Map(options.tools.tools.map((tool) => [tool.name, tool]));
  const check = argumentCheckFor(options.validator);
  // Approvals first, one at a time in call order: a person answering prompts sees one at a time.
  const planned: PlannedCall[] = [];
  for (const requested of calls) {
    signal?.throwIfAborted();
    const info = callInfo(requested, byName.get(requested.name), step, signal);
    let plan: PlannedCall = { requested, call: requested, info, approval: "allowed" };
    const invalid =
      info.descriptor && isPlainObject(requested.arguments)
        ? await untilAborted(
            check?.check(requested.name, info.descriptor, requested.arguments) ?? Promise.resolve(undefined),
            signal,
          )
        : undefined;
    if (invalid !== undefined) {
      // Not asked about, not run: the model hears what is wrong with its arguments.
      plan = { ...plan, answer: { content: invalid, errorCode: "invalid-arguments" } };
    } else if (
      !options.approve &&
      info.descriptor &&
      isDestructive(info) &&
      options.allowDestructive !== true
    ) {
      plan = {
        ...plan,
        approval: "denied",
        answer: {
          content: `The tool "${requested.name}" is marked destructive and needs the user's approval, which this app cannot ask for; it was not run. Do not retry it; tell the user what you wanted to do instead.`,
          errorCode: "approval-required",
        },
      };
    } else if (options.approve && info.descriptor && isPlainObject(requested.arguments)) {
      const decision = await untilAborted(Promise.resolve(options.approve(requested, info)), signal);
      if (decision === "deny" || decision === false) plan = { ...plan, approval: "denied", denial: "" };
      else if (typeof decision === "object" && decision !== null && "deny" in decision)
        plan = { ...plan, approval: "denied", denial: decision.deny };
      else if (typeof decision === "object" && decision !== null && "arguments" in decision)
        plan = { ...plan, approval: "edited", call: { ...requested, arguments: decision.arguments } };
    }
    planned.push(plan);
  }
  return mapLimited(planned, concurrency, (plan) =>
    telemetry === undefined
      ? runCall(options, plan, emit)
      : telemetry.tool(plan.requested, () => runCall(options, plan, emit)),
  );
}

function callInfo(
  call: ToolCall,
  descriptor: ToolDescriptor | undefined,
  step: number,
  signal: AbortSignal | undefined,
): ToolCallInfo {
  const aggregated = descriptor as (ToolDescriptor & { serverName?: string; sourceId?: string }) | undefined;
  return {
    step,
    signal,
    server: aggregated?.sourceId,
    tool: aggregated?.serverName ?? call.name,
    annotations: descriptor?.annotations,
    descriptor,
  };
}

async function runCall(
  options: RunToolLoopOptions,
  plan: PlannedCall,
  emit: (event: LoopEvent) => void,
): Promise<ToolResultMessage> {
  const { signal } = options;
  signal?.throwIfAborted();
  const { requested, info } = plan;
  const step = info.step;
  const context: ToolCallContext = { step, signal };
  const { signal: _signal, step: _step, ...publicInfo } = info;
  // MCP Apps: the view a host renders beside this call's result, from the tool as listed.
  const uiResource = toolUiResource(info.descriptor);
  emit({
    type: "tool-call",
    step,
    call: plan.call,
    requested,
    approval: plan.approval,
    info: publicInfo,
    uiResource,
  });
  let result: LoopToolResult | undefined;
  let effective = plan.call;
  if (plan.answer) {
    result = {
      content: plan.answer.content,
      isError: true,
      errorCode: plan.answer.errorCode,
      ...(plan.approval === "denied" ? { denied: true } : {}),
    };
  } else if (plan.approval === "denied") {
    result = {
      content: `The call of tool "${requested.name}" was denied by the user${plan.denial ? `: ${plan.denial}` : ""}. Do not retry it as it is.`,
      isError: true,
      errorCode: "denied",
      denied: true,
    };
  } else if (isPlainObject(effective.arguments)) {
    const decision = await options.beforeToolCall?.(effective, context);
    if (decision && "result" in decision) {
      const isError = decision.result.isError === true;
      result = {
        content: decision.result.content,
        isError,
        ...(isError ? { errorCode: "tool-error" as const } : {}),
        structured: decision.result.structured,
      };
    } else if (decision) {
      effective = { ...effective, arguments: decision.arguments };
    }
  }
  if (!result) {
    const timeout =
      typeof options.toolTimeout === "function" ? options.toolTimeout(effective, info) : options.toolTimeout;
    result = await executeToolCall(options.tools, effective, {
      signal,
      timeout,
      validator: options.validator,
      onProgress: (progress) => emit({ type: "tool-progress", step, call: effective, progress }),
    });
  }
  const replaced = await options.afterToolCall?.(requested, result, context);
  if (replaced) result = replaced;
  emit({ type: "tool-result", step, call: effective, result, uiResource });
  return toolResultMessage(requested, result);
}
