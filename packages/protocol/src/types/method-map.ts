import type { EmptyResult, NotificationParams, PaginatedRequestParams } from "./base.js";
import type { CompleteRequestParams, CompleteResult } from "./completion.js";
import type { DiscoverRequestParams, DiscoverResult } from "./discover.js";
import type {
  ElicitationCompleteNotificationParams,
  ElicitRequestParams,
  ElicitResult,
} from "./elicitation.js";
import type {
  LegacyCancelTaskResult,
  LegacyCreateTaskResult,
  LegacyGetTaskPayloadResult,
  LegacyGetTaskResult,
  LegacyListTasksResult,
  LegacyTaskStatusNotificationParams,
} from "./legacy-tasks.js";
import type { InitializeRequestParams, InitializeResult } from "./lifecycle.js";
import type { LoggingMessageNotificationParams, SetLevelRequestParams } from "./logging.js";
import type { InputRequiredResult } from "./mrtr.js";
import type {
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequestParams,
  ListPromptsResult,
} from "./prompts.js";
import type {
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  ResourceUpdatedNotificationParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from "./resources.js";
import type { ListRootsRequestParams, ListRootsResult, RootsListChangedNotificationParams } from "./roots.js";
import type { CreateMessageRequestParams, CreateMessageResult } from "./sampling.js";
import type {
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
} from "./subscriptions.js";
import type {
  CancelTaskRequestParams,
  CancelTaskResult,
  CreateTaskResult,
  GetTaskRequestParams,
  GetTaskResult,
  TaskIdRequestParams,
  TaskStatusNotificationParams,
  UpdateTaskRequestParams,
  UpdateTaskResult,
} from "./tasks.js";
import type {
  CallToolRequestParams,
  CallToolResult,
  ListToolsRequestParams,
  ListToolsResult,
} from "./tools.js";
import type {
  CancelledNotificationParams,
  ListChangedNotificationParams,
  PingRequestParams,
  ProgressNotificationParams,
} from "./utilities.js";

/**
 * Params and result of every request of both eras, keyed by method. Where the eras differ the result is
 * the union (e.g. `tools/call` may give an `input_required` result in 2026-07-28 or a task in either
 * tasks design). Server-to-client requests (legacy) and input requests (2026-07-28) are included.
 */
export interface RequestMap {
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  ping: { params: PingRequestParams | undefined; result: EmptyResult };
  "server/discover": { params: DiscoverRequestParams; result: DiscoverResult };
  "tools/list": { params: ListToolsRequestParams | undefined; result: ListToolsResult };
  "tools/call": {
    params: CallToolRequestParams;
    result: CallToolResult | InputRequiredResult | CreateTaskResult | LegacyCreateTaskResult;
  };
  "prompts/list": { params: ListPromptsRequestParams | undefined; result: ListPromptsResult };
  "prompts/get": { params: GetPromptRequestParams; result: GetPromptResult | InputRequiredResult };
  "resources/list": { params: ListResourcesRequestParams | undefined; result: ListResourcesResult };
  "resources/templates/list": {
    params: ListResourceTemplatesRequestParams | undefined;
    result: ListResourceTemplatesResult;
  };
  "resources/read": { params: ReadResourceRequestParams; result: ReadResourceResult | InputRequiredResult };
  "resources/subscribe": { params: SubscribeRequestParams; result: EmptyResult };
  "resources/unsubscribe": { params: UnsubscribeRequestParams; result: EmptyResult };
  "completion/complete": { params: CompleteRequestParams; result: CompleteResult };
  "logging/setLevel": { params: SetLevelRequestParams; result: EmptyResult };
  "subscriptions/listen": { params: SubscriptionsListenRequestParams; result: SubscriptionsListenResult };
  "sampling/createMessage": {
    params: CreateMessageRequestParams;
    result: CreateMessageResult | LegacyCreateTaskResult;
  };
  "elicitation/create": { params: ElicitRequestParams; result: ElicitResult | LegacyCreateTaskResult };
  "roots/list": { params: ListRootsRequestParams | undefined; result: ListRootsResult };
  "tasks/get": { params: GetTaskRequestParams; result: GetTaskResult | LegacyGetTaskResult };
  "tasks/result": { params: TaskIdRequestParams; result: LegacyGetTaskPayloadResult };
  "tasks/list": { params: PaginatedRequestParams | undefined; result: LegacyListTasksResult };
  "tasks/cancel": { params: CancelTaskRequestParams; result: CancelTaskResult | LegacyCancelTaskResult };
  "tasks/update": { params: UpdateTaskRequestParams; result: UpdateTaskResult };
}

/** Params of every notification of both eras, keyed by method. */
export interface NotificationMap {
  "notifications/initialized": NotificationParams | undefined;
  "notifications/cancelled": CancelledNotificationParams;
  "notifications/progress": ProgressNotificationParams;
  "notifications/message": LoggingMessageNotificationParams;
  "notifications/resources/updated": ResourceUpdatedNotificationParams;
  "notifications/resources/list_changed": ListChangedNotificationParams | undefined;
  "notifications/tools/list_changed": ListChangedNotificationParams | undefined;
  "notifications/prompts/list_changed": ListChangedNotificationParams | undefined;
  "notifications/roots/list_changed": RootsListChangedNotificationParams | undefined;
  "notifications/elicitation/complete": ElicitationCompleteNotificationParams;
  "notifications/subscriptions/acknowledged": SubscriptionsAcknowledgedNotificationParams;
  "notifications/tasks/status": LegacyTaskStatusNotificationParams;
  "notifications/tasks": TaskStatusNotificationParams;
}

/** A request method name in {@link RequestMap}. */
export type RequestMethod = keyof RequestMap;

/** A notification method name in {@link NotificationMap}. */
export type NotificationMethod = keyof NotificationMap;

/** The params type of request `M`. */
export type RequestParamsOf<M extends RequestMethod> = RequestMap[M]["params"];

/** The result type of request `M`. */
export type ResultOf<M extends RequestMethod> = RequestMap[M]["result"];

/** The params type of notification `M`. */
export type NotificationParamsOf<M extends NotificationMethod> = NotificationMap[M];
