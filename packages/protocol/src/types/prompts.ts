import type {
  BaseMetadata,
  CacheHints,
  Icons,
  Meta,
  PaginatedRequestParams,
  PaginatedResult,
  RequestParams,
  Result,
  Role,
} from "./base.js";
import type { ContentBlock } from "./content.js";
import type { InputResponseRequestParams } from "./mrtr.js";

/** An argument a prompt accepts. */
export interface PromptArgument extends BaseMetadata {
  description?: string;
  required?: boolean;
}

/** A prompt template the server offers. */
export interface Prompt extends BaseMetadata, Icons {
  description?: string;
  arguments?: PromptArgument[];
  _meta?: Meta;
}

/** One message of a prompt. Unlike sampling messages, prompt messages hold a single content block. */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** Params of `prompts/list`. */
export interface ListPromptsRequestParams extends PaginatedRequestParams {}

/** Result of `prompts/list`. Cache hints are required in 2026-07-28. */
export interface ListPromptsResult extends PaginatedResult, CacheHints {
  prompts: Prompt[];
}

/** Params of `prompts/get`; MRTR-capable in 2026-07-28. */
export interface GetPromptRequestParams extends RequestParams, InputResponseRequestParams {
  name: string;
  /** Argument values, all strings. */
  arguments?: Record<string, string>;
}

/** Result of `prompts/get`. */
export interface GetPromptResult extends Result {
  description?: string;
  messages: PromptMessage[];
}
