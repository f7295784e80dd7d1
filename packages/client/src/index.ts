// The public surface of @mcpkit/client. Explicit named exports only: a test snapshots this list.

export { createClient } from "./client.js";
export type { Client, Completion, TaskInfo } from "./client-api.js";
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
export type { ClientLink, LinkNext, LinkRequest } from "./links/link.js";
export type {
  AwaitTaskOptions,
  CallOptions,
  ClientOptions,
  ConnectOptions,
  ListOptions,
  ReadOptions,
  VersionNegotiation,
} from "./options.js";
export { type RequestConfig, withRequestConfig } from "./request-config.js";
export {
  type CachedResponse,
  createMemoryResponseCache,
  type ResponseCacheOptions,
  type ResponseCacheStore,
} from "./response-cache.js";
export {
  createSkillsClient,
  type LoadedSkill,
  type SkillFile,
  type SkillsClient,
  type SkillsHost,
  SkillVerificationError,
  type SkillVerificationReason,
} from "./skills.js";
export type { StandardSchemaIssue, StandardSchemaV1 } from "./standard-schema.js";
export type { Subscription, SubscriptionNotification } from "./subscription.js";
export type { OutputValidation, ToolCallOptions, ToolTaskHandle } from "./tool-call.js";
export { fromWireToolResult, type ToolResult } from "./tool-result.js";
export {
  type ToolVisibility,
  type ToolWithMeta,
  toolUiResourceUri,
  toolVisibility,
} from "./tool-ui.js";
export type { TransportChoices, TransportFactory, TransportSource } from "./transport-source.js";
