import type { LoopToolResult } from "./execute-tool-call.js";
import type { ToolCall } from "./model.js";
import type { LoopStep, RunToolLoopResult, ToolCallInfo } from "./run-tool-loop.js";
import type { ToolProgress } from "./tool-source.js";

/** How a call got past the approval hook. */
export type ToolApprovalOutcome = "allowed" | "edited" | "denied";

/**
 * One event of a tool loop run, in the order things happened. `step` is the 0-based model call.
 *
 * Within a step: the model's deltas (`text-delta`, `reasoning-delta`, `tool-input-delta`), then per
 * call `tool-call` → `tool-progress`* → `tool-result` (calls of one turn may interleave when they run
 * concurrently), then `step-finish`. `tools-changed` comes before the model call that sees the new
 * list. The last event is `finish`; a run that fails or is aborted ends without it.
 */
export type LoopEvent =
  | { readonly type: "text-delta"; readonly step: number; readonly text: string }
  | { readonly type: "reasoning-delta"; readonly step: number; readonly text: string }
  /** A piece of a call's arguments as the provider streamed them (not yet parsed or checked). */
  | {
      readonly type: "tool-input-delta";
      readonly step: number;
      readonly id: string;
      readonly name: string;
      readonly delta: string;
    }
  /** A server's tool list changed; the model is offered `tools` from this step on. */
  | { readonly type: "tools-changed"; readonly step: number; readonly tools: readonly string[] }
  /**
   * A call starts (or is answered at once, when denied): `call` carries the arguments it runs with
   * (edited ones when the hook edited them), `requested` the model's own call. `uiResource` is the
   * tool's MCP Apps view (`_meta.ui.resourceUri`), for a host that renders it next to the result.
   */
  | {
      readonly type: "tool-call";
      readonly step: number;
      readonly call: ToolCall;
      readonly requested: ToolCall;
      readonly approval: ToolApprovalOutcome;
      readonly info: Omit<ToolCallInfo, "signal" | "step">;
      readonly uiResource?: string | undefined;
    }
  | {
      readonly type: "tool-progress";
      readonly step: number;
      readonly call: ToolCall;
      readonly progress: ToolProgress;
    }
  | {
      readonly type: "tool-result";
      readonly step: number;
      readonly call: ToolCall;
      readonly result: LoopToolResult;
      /** The tool's MCP Apps view, as on its `tool-call` event: render it with this result. */
      readonly uiResource?: string | undefined;
    }
  | { readonly type: "step-finish"; readonly step: number; readonly detail: LoopStep }
  | { readonly type: "finish"; readonly result: RunToolLoopResult };
