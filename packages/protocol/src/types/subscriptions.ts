import type { NotificationParams, RequestId, RequestParams, ResultMeta, ResultTypeName } from "./base.js";

/**
 * Which notifications a `subscriptions/listen` stream should carry (2026-07-28). The server must not send
 * kinds that were not asked for. The tasks extension adds `taskIds`.
 * @see SPEC.md §3.7 Subscribe/notify
 */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  /** URIs whose `notifications/resources/updated` the client wants. */
  resourceSubscriptions?: string[];
  /** Tasks extension: ids of tasks whose `notifications/tasks` the client wants. */
  taskIds?: string[];
}

/** Params of `subscriptions/listen` (2026-07-28). */
export interface SubscriptionsListenRequestParams extends RequestParams {
  notifications: SubscriptionFilter;
}

/**
 * Params of `notifications/subscriptions/acknowledged`, the first message of a listen stream: the subset of
 * the filter the server honours, and `_meta["io.modelcontextprotocol/subscriptionId"]` = the listen
 * request's JSON-RPC id.
 */
export interface SubscriptionsAcknowledgedNotificationParams extends NotificationParams {
  notifications: SubscriptionFilter;
}

/** `_meta` of a {@link SubscriptionsListenResult}. */
export interface SubscriptionsListenResultMeta extends ResultMeta {
  "io.modelcontextprotocol/subscriptionId": RequestId;
}

/**
 * Result of `subscriptions/listen`, sent only when the server closes the stream gracefully.
 */
export interface SubscriptionsListenResult {
  resultType: ResultTypeName;
  _meta: SubscriptionsListenResultMeta;
}
