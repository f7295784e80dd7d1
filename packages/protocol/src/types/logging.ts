import type { NotificationParams, RequestParams } from "./base.js";

/** Syslog severities (RFC 5424), least to most severe: debug … emergency. */
export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/**
 * Params of the legacy `logging/setLevel` (removed in 2026-07-28, where the level travels per request in
 * `_meta["io.modelcontextprotocol/logLevel"]`).
 */
export interface SetLevelRequestParams extends RequestParams {
  level: LoggingLevel;
}

/**
 * Params of `notifications/message`. In 2026-07-28 (deprecated logging) sent only for a request that
 * carried a log level, only on that request's response stream.
 */
export interface LoggingMessageNotificationParams extends NotificationParams {
  level: LoggingLevel;
  logger?: string;
  /** Any JSON-serializable value. */
  data: unknown;
}
