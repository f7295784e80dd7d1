export {
  type AnthropicClient,
  type AnthropicConversation,
  type AnthropicMcpTools,
  type AnthropicMessageParam,
  type AnthropicModelOptions,
  type AnthropicTool,
  type AnthropicToolResultBlock,
  anthropicToolResult,
  createAnthropicModel,
  mcpTools,
  toAnthropicMessages,
  toAnthropicTools,
} from "./messages.js";
export {
  ANTHROPIC_REASONING_PROVIDER,
  type AnthropicContentBlockLike,
  type AnthropicMessageLike,
  readAnthropicReasoning,
  readAnthropicText,
  readAnthropicToolCalls,
} from "./messages-read.js";
export { type AnthropicStreamEventLike, readAnthropicStream } from "./messages-stream.js";
