export {
  AI_SDK_REASONING_PROVIDER,
  type AiSdkGenerateText,
  type AiSdkModelOptions,
  type AiSdkStreamPartLike,
  type AiSdkStreamText,
  createAiSdkModel,
  toAiSdkMessages,
  toAiSdkTools,
} from "./model.js";
export {
  type AiSdkModelOutput,
  type AiSdkToolCallOptions,
  aiSdkJsonSchema,
  type McpAiTool,
  type McpToolOutput,
  type McpToolSet,
  mcpToolSet,
} from "./tool-set.js";
