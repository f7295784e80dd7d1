/**
 * Values of a 2026-07-28 result's `resultType`. `Complete` and `InputRequired` are core; `Task` belongs to
 * the tasks extension and is valid only when that extension was negotiated on the request. An absent
 * `resultType` (any legacy result) means `Complete`; an unknown value is invalid.
 * @see SPEC.md §3.1
 */
export const ResultType = {
  Complete: "complete",
  InputRequired: "input_required",
  Task: "task",
} as const;

/** A `resultType` value mcpkit recognizes. */
export type ResultType = (typeof ResultType)[keyof typeof ResultType];

/**
 * Reads a result's `resultType` as the spec says: absent means `"complete"`; a known value is returned;
 * anything else gives `undefined` (the caller must treat the result as invalid).
 */
export function readResultType(result: unknown): ResultType | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const value = (result as { resultType?: unknown }).resultType;
  if (value === undefined) return ResultType.Complete;
  return value === ResultType.Complete || value === ResultType.InputRequired || value === ResultType.Task
    ? value
    : undefined;
}
