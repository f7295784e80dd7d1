import type { NotificationParams, ProgressToken, RequestId, RequestParams } from "./base.js";

/** Params of `ping` (legacy only; removed in 2026-07-28). The answer is an empty result. */
export interface PingRequestParams extends RequestParams {}

/**
 * Params of `notifications/cancelled`. `requestId` is required except in 2025-11-25, where it must not be
 * used for tasks. 2026-07-28 uses it on stdio only (on HTTP, closing the stream cancels).
 */
export interface CancelledNotificationParams extends NotificationParams {
  /** The id of the request to cancel (or, from the server, of the `subscriptions/listen` it ends). */
  requestId?: RequestId;
  reason?: string;
}

/**
 * Params of `notifications/progress`. `progress` must increase; `message` arrived in 2025-03-26.
 */
export interface ProgressNotificationParams extends NotificationParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
}

/** Params of the list-changed notifications of tools, prompts and resources. */
export interface ListChangedNotificationParams extends NotificationParams {}
