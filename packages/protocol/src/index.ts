// The public surface of @mcpkit/protocol. Explicit named exports only: a test snapshots this list.

// The JSON Schema engine is @mcpkit/json-schema (import createJsonSchemaValidator and
// formatJsonSchemaErrors from there); its types are re-exported here, which costs no import at run time.
export type {
  CompiledJsonSchema,
  JsonSchemaError,
  JsonSchemaValidator,
  JsonSchemaValidatorOptions,
  JsonSchemaVerdict,
} from "@mcpkit/json-schema";
export { audio, embeddedResource, fromBase64, image, resourceLink, text, toBase64 } from "./content.js";
export type {
  MissingRequiredClientCapabilityErrorData,
  UnsupportedProtocolVersionErrorData,
} from "./errors.js";
export { isModernError, McpError, McpErrorCode, readUnsupportedVersionData } from "./errors.js";
export {
  collectParamHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  findXMcpHeaderProblem,
  Header,
  mcpNameFor,
  validateXMcpHeaderAnnotations,
  X_MCP_HEADER,
} from "./headers.js";
export { isLevelEnabled, isLoggingLevel, LOGGING_LEVELS } from "./logging.js";
export { isReservedMetaKey, MetaKey, TASKS_EXTENSION_ID } from "./meta.js";
export type { CapabilityRequirement, MethodDirection, MethodInfo, MethodKind } from "./methods.js";
export {
  getMethodInfo,
  hasCapability,
  isCacheableMethod,
  isMethodInVersion,
  isMrtrMethod,
  LEGACY_METHODS,
  Method,
  MODERN_METHODS,
  requiredCapability,
} from "./methods.js";
export { loadOpenTelemetry } from "./otel-api.js";
export { modernRequestHeaders } from "./request-headers.js";
export { ResultType, readResultType } from "./result-type.js";
export {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  SKILL_MD,
  SKILLS_EXTENSION_ID,
} from "./skills.js";
export type {
  InferOutput,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from "./standard-schema.js";
// The spans and metrics themselves are the `@mcpkit/protocol/telemetry` entry, loaded only by a client or
// server that uses them (a browser client without OpenTelemetry never downloads them).
export type {
  ConnectionFacts,
  OpenTelemetryApi,
  OtelHistogram,
  OtelMeter,
  OtelMeterProvider,
  OtelSpan,
  OtelTracer,
  OtelTracerProvider,
  TelemetryAttributes,
  TelemetryOption,
} from "./telemetry.js";
export { MAX_TOOL_NAME_LENGTH, toolNameProblem } from "./tool-names.js";
export type {
  Annotations,
  BaseMetadata,
  CacheableResult,
  CacheHints,
  CacheScope,
  Cursor,
  EmptyResult,
  ErrorObject,
  Icon,
  Icons,
  Implementation,
  JsonArray,
  JsonObject,
  JsonValue,
  Meta,
  ModernRequestMeta,
  NotificationMeta,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  ProgressToken,
  RequestId,
  RequestMeta,
  RequestParams,
  Result,
  ResultMeta,
  ResultTypeName,
  Role,
} from "./types/base.js";
export type {
  ClientCapabilities,
  ExtensionCapabilities,
  LegacyClientTasksCapability,
  LegacyServerTasksCapability,
  ServerCapabilities,
} from "./types/capabilities.js";
export type {
  CompleteRequestParams,
  CompleteResult,
  PromptReference,
  ResourceTemplateReference,
} from "./types/completion.js";
export type {
  AudioContent,
  BlobResourceContents,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  SamplingMessageContentBlock,
  TextContent,
  TextResourceContents,
  ToolResultContent,
  ToolUseContent,
} from "./types/content.js";
export type { DiscoverRequestParams, DiscoverResult } from "./types/discover.js";
export type {
  BooleanSchema,
  ElicitationCompleteNotificationParams,
  ElicitationRequestedSchema,
  ElicitationValue,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestUrlParams,
  ElicitResult,
  EnumSchema,
  LegacyTitledEnumSchema,
  NumberSchema,
  PrimitiveSchemaDefinition,
  StringSchema,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
  UrlElicitationRequiredErrorData,
} from "./types/elicitation.js";
export type {
  LegacyCancelTaskResult,
  LegacyCreateTaskResult,
  LegacyGetTaskPayloadResult,
  LegacyGetTaskResult,
  LegacyListTasksResult,
  LegacyTask,
  LegacyTaskMetadata,
  LegacyTaskStatusNotificationParams,
  RelatedTaskMetadata,
} from "./types/legacy-tasks.js";
export type { InitializeRequestParams, InitializeResult } from "./types/lifecycle.js";
export type {
  LoggingLevel,
  LoggingMessageNotificationParams,
  SetLevelRequestParams,
} from "./types/logging.js";
export type {
  NotificationMap,
  NotificationMethod,
  NotificationParamsOf,
  RequestMap,
  RequestMethod,
  RequestParamsOf,
  ResultOf,
} from "./types/method-map.js";
export type {
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponseRequestParams,
  InputResponses,
} from "./types/mrtr.js";
export type {
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequestParams,
  ListPromptsResult,
  Prompt,
  PromptArgument,
  PromptMessage,
} from "./types/prompts.js";
export type {
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ResourceUpdatedNotificationParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from "./types/resources.js";
export type {
  ListRootsRequest,
  ListRootsRequestParams,
  ListRootsResult,
  Root,
  RootsListChangedNotificationParams,
} from "./types/roots.js";
export type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  CreateMessageResult,
  ModelHint,
  ModelPreferences,
  SamplingMessage,
  ToolChoice,
} from "./types/sampling.js";
export type {
  GetSkillRequestParams,
  GetSkillResult,
  ListSkillsRequestParams,
  ListSkillsResult,
  ReadResourceDirectoryRequestParams,
  ReadResourceDirectoryResult,
  Skill,
  SkillFrontmatter,
  SkillResource,
  SkillsCapability,
} from "./types/skills.js";
export type {
  SubscriptionFilter,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
  SubscriptionsListenResultMeta,
} from "./types/subscriptions.js";
export type {
  CancelledTask,
  CancelTaskRequestParams,
  CancelTaskResult,
  CompletedTask,
  CreateTaskResult,
  DetailedTask,
  FailedTask,
  GetTaskRequestParams,
  GetTaskResult,
  InputRequiredTask,
  Task,
  TaskIdRequestParams,
  TaskStatus,
  TaskStatusNotificationParams,
  TasksExtensionCapability,
  UpdateTaskRequestParams,
  UpdateTaskResult,
  WorkingTask,
} from "./types/tasks.js";
export type {
  CallToolRequestParams,
  CallToolResult,
  JsonSchema,
  ListToolsRequestParams,
  ListToolsResult,
  Tool,
  ToolAnnotations,
  ToolExecution,
  ToolInputSchema,
} from "./types/tools.js";
export type {
  CancelledNotificationParams,
  ListChangedNotificationParams,
  PingRequestParams,
  ProgressNotificationParams,
} from "./types/utilities.js";
export type {
  LegacyProtocolVersion,
  ModernProtocolVersion,
  ProtocolEra,
  ProtocolVersion,
} from "./versions.js";
export {
  allowsBatches,
  DEFAULT_NEGOTIATED_HTTP_VERSION,
  eraOf,
  isLegacyVersion,
  isModernVersion,
  isSupportedVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./versions.js";
