export {
  type AggregatedTool,
  type AggregatedTools,
  type AggregateToolsOptions,
  aggregateTools,
  isToolbox,
  type ResolvedTool,
  type Toolbox,
  type ToolFilter,
  type ToolNamingContext,
  type ToolSourceEntry,
  type ToolSources,
  toToolbox,
} from "./aggregate.js";
export { ToolNameCollisionError, UnknownToolError } from "./errors.js";
export type {
  AssistantMessage,
  LoopMessage,
  Model,
  ModelRequest,
  ModelResponse,
  ModelTool,
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
  type ExecuteToolCallOptions,
  executeToolCall,
  type FinishReason,
  type LoopStep,
  type LoopToolResult,
  type RunToolLoopOptions,
  type RunToolLoopResult,
  runToolLoop,
  type ToolCallContext,
  type ToolCallDecision,
  toModelTools,
  toolResultMessage,
} from "./run-tool-loop.js";
export {
  createScriptedModel,
  type ScriptContext,
  type ScriptedModel,
  type ScriptedToolCall,
  type ScriptTurn,
} from "./scripted-model.js";
export type {
  JsonSchema,
  ToolAnnotationsLike,
  ToolCallOutcome,
  ToolDescriptor,
  ToolSource,
  ToolSourceCallOptions,
} from "./tool-source.js";
