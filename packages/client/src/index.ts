// The public surface of @mcpkit/client. Explicit named exports only: a test snapshots this list.

export {
  type AwaitTaskOptions,
  type CallOptions,
  type Client,
  type ClientOptions,
  type Completion,
  type ConnectOptions,
  createClient,
  type ListOptions,
  type TaskInfo,
  type VersionNegotiation,
} from "./client.js";
export {
  InputRequestError,
  InvalidResultError,
  OutputValidationError,
  TaskCancelledError,
} from "./errors.js";
export type {
  ElicitationHandler,
  InputContext,
  InputHandlers,
  RootsHandler,
  SamplingHandler,
} from "./input.js";
export { type RequestConfig, withRequestConfig } from "./request-config.js";
export type { Subscription, SubscriptionNotification } from "./subscription.js";
export { type ToolResult, toToolResult } from "./tool-result.js";
export type { TransportChoices, TransportFactory, TransportSource } from "./transport-source.js";
