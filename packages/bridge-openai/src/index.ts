export {
  type ChatCompletionLike,
  type ChatCompletionsAssistantMessageLike,
  type ChatCompletionsFunctionTool,
  type ChatCompletionsMessage,
  type ChatCompletionsToolCallLike,
  type ChatCompletionsToolMessage,
  chatCompletionsToolMessage,
  createOpenAIChatModel,
  type OpenAIChatClient,
  type OpenAIChatModelOptions,
  type OpenAIToolOptions,
  readChatCompletionsToolCalls,
  toChatCompletionsMessages,
  toChatCompletionsTools,
} from "./chat-completions.js";
export { type ChatCompletionChunkLike, readChatCompletionsStream } from "./chat-completions-stream.js";
export { TOOL_ERROR_PREFIX, toolOutputText } from "./error-text.js";
export {
  type ChatCompletionsMcpTools,
  type McpToolsOptions,
  mcpTools,
  mcpToolsRespond,
  type ResponsesMcpTools,
  type RunToolCallsOptions,
} from "./mcp-tools.js";
export {
  type ChatCompletionsFunctionDefinition,
  type OpenAIToolContext,
  type OpenAIToolFunction,
  type RegisterOpenAIToolOptions,
  type ResponsesFunctionDefinition,
  registerOpenAITool,
  type ToolRegistry,
} from "./register-tool.js";
export {
  createOpenAIResponsesModel,
  type OpenAIResponsesClient,
  type OpenAIResponsesModelOptions,
  type ResponsesFunctionCallOutput,
  type ResponsesFunctionTool,
  type ResponsesInputItem,
  responsesToolOutput,
  toResponsesInput,
  toResponsesTools,
} from "./responses.js";
export {
  RESPONSES_REASONING_PROVIDER,
  type ResponseLike,
  type ResponsesOutputItemLike,
  readResponsesReasoning,
  readResponsesText,
  readResponsesToolCalls,
} from "./responses-read.js";
export { type ResponsesStreamEventLike, readResponsesStream } from "./responses-stream.js";
export { canBeStrict, fromStrictArguments, StrictSchemaError, toStrictJsonSchema } from "./strict-schema.js";
