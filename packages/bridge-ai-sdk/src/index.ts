export {
  type AiSdkModelOutput,
  type AiSdkToolCallOptions,
  aiSdkJsonSchema,
  type McpAiTool,
  type McpToolOutput,
  type McpToolSet,
  mcpToolSet,
} from "./tool-set.js";
