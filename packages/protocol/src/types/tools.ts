// A JSON Schema object: the engine's type (@mcpkit/json-schema), so both name one type.
import type { JsonSchema } from "@mcpkit/json-schema";
import type {
  BaseMetadata,
  CacheHints,
  Icons,
  JsonValue,
  Meta,
  PaginatedRequestParams,
  PaginatedResult,
  RequestParams,
  Result,
} from "./base.js";
import type { ContentBlock } from "./content.js";
import type { LegacyTaskMetadata } from "./legacy-tasks.js";
import type { InputResponseRequestParams } from "./mrtr.js";

export type { JsonSchema };

/**
 * A tool's input schema. Its root is always `type: "object"`. Up to 2025-11-25 only `properties` and
 * `required` were defined; 2026-07-28 allows any JSON Schema 2020-12 keyword.
 */
export interface ToolInputSchema extends JsonSchema {
  type: "object";
}

/**
 * Hints about a tool's behaviour (2025-03-26+). Untrusted unless the server is trusted.
 * Defaults: readOnly false, destructive true, idempotent false, openWorld true.
 */
export interface ToolAnnotations {
  title?: string;
  /** The tool does not modify its environment. Default false. */
  readOnlyHint?: boolean;
  /** Updates may be destructive (meaningful only when not read-only). Default true. */
  destructiveHint?: boolean;
  /** Repeating the call with the same arguments has no further effect. Default false. */
  idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. Default true. */
  openWorldHint?: boolean;
}

/** How a tool supports the 2025-11-25 experimental tasks. Removed in 2026-07-28 (tasks moved to an extension). */
export interface ToolExecution {
  taskSupport?: "forbidden" | "optional" | "required";
}

/**
 * A tool the client can call.
 * @see SPEC.md §3.9 Tools
 */
export interface Tool extends BaseMetadata, Icons {
  description?: string;
  inputSchema: ToolInputSchema;
  /**
   * Schema of `structuredContent` (2025-06-18+). Up to 2025-11-25 its root must be `type: "object"`;
   * 2026-07-28 allows any schema.
   */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** 2025-11-25 only. */
  execution?: ToolExecution;
  _meta?: Meta;
}

/** Params of `tools/list`. */
export interface ListToolsRequestParams extends PaginatedRequestParams {}

/** Result of `tools/list`. Cache hints are required in 2026-07-28; the order SHOULD be deterministic. */
export interface ListToolsResult extends PaginatedResult, CacheHints {
  tools: Tool[];
}

/**
 * Params of `tools/call`. In 2026-07-28 MRTR-capable (`inputResponses`, `requestState`); in 2025-11-25
 * task-augmentable (`task`).
 */
export interface CallToolRequestParams extends RequestParams, InputResponseRequestParams {
  name: string;
  arguments?: Record<string, unknown>;
  /** 2025-11-25 only: ask for the call to run as a task. */
  task?: LegacyTaskMetadata;
}

/**
 * Result of `tools/call`. A tool's own failure is `isError: true` with content, not a JSON-RPC error.
 * `structuredContent` (2025-06-18+) is an object up to 2025-11-25 and any JSON value in 2026-07-28.
 */
export interface CallToolResult extends Result {
  content: ContentBlock[];
  structuredContent?: JsonValue;
  isError?: boolean;
}
