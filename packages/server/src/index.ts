// The public surface of @mcpkit/server. Explicit named exports only: a test snapshots this list.

export type { ServerConnection } from "./connection.js";
export type { HandleContext, HandleResult } from "./handle.js";
export { InputRequiredSignal, isInputRequired } from "./internal/context.js";
export type { ListKind } from "./internal/registry.js";
export type { FromJsonSchema, ReadonlyJsonSchema } from "./json-schema-types.js";
export {
  isNotificationEvent,
  type NotificationBus,
  type NotificationEvent,
} from "./notification-bus.js";
export { createServer, type Server, withInputSchema } from "./server.js";
export type { ConnectOptions, SharedSession } from "./shared-session.js";
export type { SkillDefinition, SkillsOptions } from "./skills.js";
export {
  type InferOutput,
  isStandardSchema,
  type JsonSchemaConverter,
  type StandardSchemaIssue,
  type StandardSchemaResult,
  type StandardSchemaV1,
} from "./standard-schema.js";
export {
  createInMemoryTaskStore,
  type StoredTask,
  TaskCancelledError,
  type TaskSignal,
  type TaskSignals,
  type TaskStore,
} from "./tasks.js";
export type {
  ArgsOf,
  ClientView,
  Completer,
  HandlerContext,
  InputOptions,
  PromptConfig,
  PromptHandler,
  PromptReturn,
  Registered,
  RequestStateValues,
  ResourceConfig,
  ResourceHandler,
  ResourceReturn,
  ResourceTemplateConfig,
  ResourceTemplateHandler,
  SchemaBoundHandler,
  SchemaInput,
  ServerLogger,
  ServerOptions,
  ServerStores,
  TaskSupport,
  ToolConfig,
  ToolHandler,
  ToolReturn,
} from "./types.js";
