import type { JsonObject, Meta, RequestParams, Result, Role } from "./base.js";
import type { SamplingMessageContentBlock } from "./content.js";
import type { LegacyTaskMetadata } from "./legacy-tasks.js";
import type { Tool } from "./tools.js";

/**
 * One message of a sampling conversation. `content` may be one block or (2025-11-25+) an array.
 * A user message answering tool uses holds only `tool_result` blocks.
 */
export interface SamplingMessage {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  _meta?: Meta;
}

/** A hint for model selection; `name` may be a substring or family name. */
export interface ModelHint {
  name?: string;
}

/** How the server weighs cost, speed and intelligence (each 0–1) when the client picks a model. */
export interface ModelPreferences {
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** How the model may use the offered tools (2025-11-25+). */
export interface ToolChoice {
  mode?: "auto" | "required" | "none";
}

/**
 * Params of `sampling/createMessage`. Deprecated in 2026-07-28 (still functional).
 * `tools` and `toolChoice` arrived in 2025-11-25 and need the client's `sampling.tools` capability;
 * `includeContext` values other than `"none"` are soft-deprecated and need `sampling.context`.
 */
export interface CreateMessageRequestParams extends RequestParams {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  /** Required: the most tokens to sample. */
  maxTokens: number;
  stopSequences?: string[];
  /** Provider-specific metadata, passed through. */
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: ToolChoice;
  /** 2025-11-25 only: run the sampling as a task. */
  task?: LegacyTaskMetadata;
}

/**
 * `sampling/createMessage`: a server-to-client request in the legacy era; an embedded input request in
 * 2026-07-28.
 */
export interface CreateMessageRequest {
  method: "sampling/createMessage";
  params: CreateMessageRequestParams;
}

/**
 * The client's sampled message. `stopReason` is free-form; known values are `endTurn`, `stopSequence`,
 * `maxTokens` and (2025-11-25+) `toolUse`.
 */
export interface CreateMessageResult extends Result {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** The model that produced the message. */
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & {});
}
