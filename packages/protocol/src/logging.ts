import type { LoggingLevel } from "./types/logging.js";

/**
 * The log levels, least severe first (RFC 5424 order).
 * @see SPEC.md §3.9 Logging
 */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** Whether `value` is one of the eight log levels. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return (LOGGING_LEVELS as readonly unknown[]).includes(value);
}

/**
 * Whether a message at `messageLevel` passes the client's `threshold`: true when it is as severe or more.
 * An unknown level on either side gives false (a bad threshold is answered -32602 elsewhere).
 */
export function isLevelEnabled(messageLevel: LoggingLevel, threshold: LoggingLevel): boolean {
  const message = LOGGING_LEVELS.indexOf(messageLevel);
  const min = LOGGING_LEVELS.indexOf(threshold);
  return message >= 0 && min >= 0 && message >= min;
}
