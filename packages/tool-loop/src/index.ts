export {
  type AggregatedTool,
  type AggregatedTools,
  type AggregateToolsOptions,
  aggregateTools,
  isRefreshable,
  isToolbox,
  type ResolvedTool,
  type Toolbox,
  type ToolFilter,
  type ToolNamingContext,
  type ToolSourceEntry,
  type ToolSources,
  toToolbox,
} from "./aggregate.js";
export { isModelVisible, toolUiResource } from "./app-tools.js";
export { ToolNameCollisionError, UnknownToolError } from "./errors.js";
export {
  type ExecuteToolCallOptions,
  executeToolCall,
  type LoopToolResult,
  type ToolErrorCode,
  toolResultMessage,
} from "./execute-tool-call.js";
export type { LoopEvent, ToolApprovalOutcome } from "./loop-events.js";
export type {
  AssistantMessage,
  LoopMessage,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelTool,
  ReasoningPart,
  SystemMessage,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "./model.js";
export {
  isProviderToolName,
  MAX_TOOL_NAME_LENGTH,
  PROVIDER_TOOL_NAME_PATTERN,
  sanitizeToolName,
} from "./naming.js";
export { toolResultText } from "./result-text.js";
export {
  DEFAULT_MAX_STEPS,
  type FinishReason,
  type LoopStep,
  type RunToolLoopOptions,
  type RunToolLoopResult,
  runToolLoop,
  type ToolApproval,
  type ToolCallContext,
  type ToolCallDecision,
  type ToolCallInfo,
  toModelTools,
} from "./run-tool-loop.js";
export {
  createScriptedModel,
  type ScriptContext,
  type ScriptedModel,
  type ScriptedToolCall,
  type ScriptTurn,
} from "./scripted-model.js";
export { streamToolLoop, type ToolLoopStream } from "./stream-tool-loop.js";
export type { ToolLoopOpenTelemetryApi, ToolLoopTelemetryOption } from "./telemetry.js";
export type {
  JsonSchema,
  ToolAnnotationsLike,
  ToolCallOutcome,
  ToolDescriptor,
  ToolProgress,
  ToolSource,
  ToolSourceCallOptions,
} from "./tool-source.js";
