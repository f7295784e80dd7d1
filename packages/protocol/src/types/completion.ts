import type { RequestParams, Result } from "./base.js";

/** Completion target: a prompt by name (`title` arrived in 2025-06-18). */
export interface PromptReference {
  type: "ref/prompt";
  name: string;
  title?: string;
}

/** Completion target: a resource template by its URI template. */
export interface ResourceTemplateReference {
  type: "ref/resource";
  /** The URI or URI template. */
  uri: string;
}

/**
 * Params of `completion/complete`. `context` arrived in 2025-06-18. Needs the server's `completions`
 * capability (2025-03-26+; 2024-11-05 had no flag).
 */
export interface CompleteRequestParams extends RequestParams {
  ref: PromptReference | ResourceTemplateReference;
  /** The argument being completed and what the user typed so far. */
  argument: { name: string; value: string };
  /** Values of arguments already resolved. */
  context?: { arguments?: Record<string, string> };
}

/** Result of `completion/complete`: at most 100 values. */
export interface CompleteResult extends Result {
  completion: {
    values: string[];
    /** Total number of matches, possibly more than returned. */
    total?: number;
    hasMore?: boolean;
  };
}
