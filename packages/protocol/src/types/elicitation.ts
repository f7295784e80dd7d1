import type { Meta, RequestParams, Result } from "./base.js";
import type { LegacyTaskMetadata } from "./legacy-tasks.js";

/** A string field of an elicitation form. */
export interface StringSchema {
  type: "string";
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: "email" | "uri" | "date" | "date-time";
  default?: string;
}

/** A number or integer field of an elicitation form. */
export interface NumberSchema {
  type: "number" | "integer";
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A boolean field of an elicitation form. */
export interface BooleanSchema {
  type: "boolean";
  title?: string;
  description?: string;
  default?: boolean;
}

/** Single choice among plain values (2025-11-25+). */
export interface UntitledSingleSelectEnumSchema {
  type: "string";
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
}

/** Single choice among values with display titles (2025-11-25+). */
export interface TitledSingleSelectEnumSchema {
  type: "string";
  title?: string;
  description?: string;
  oneOf: { const: string; title: string }[];
  default?: string;
}

/** Multiple choice among plain values (2025-11-25+). */
export interface UntitledMultiSelectEnumSchema {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: "string"; enum: string[] };
  default?: string[];
}

/** Multiple choice among values with display titles (2025-11-25+). */
export interface TitledMultiSelectEnumSchema {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { anyOf: { const: string; title: string }[] };
  default?: string[];
}

/**
 * The 2025-06-18 enum form, titles in a parallel `enumNames` array. Still accepted; prefer
 * {@link TitledSingleSelectEnumSchema}.
 */
export interface LegacyTitledEnumSchema {
  type: "string";
  title?: string;
  description?: string;
  enum: string[];
  enumNames?: string[];
  default?: string;
}

/** Any enum field of an elicitation form. */
export type EnumSchema =
  | UntitledSingleSelectEnumSchema
  | TitledSingleSelectEnumSchema
  | UntitledMultiSelectEnumSchema
  | TitledMultiSelectEnumSchema
  | LegacyTitledEnumSchema;

/** One field of an elicitation form: a flat primitive, never a nested object. */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** The flat object schema of an elicitation form. */
export interface ElicitationRequestedSchema {
  $schema?: string;
  type: "object";
  properties: Record<string, PrimitiveSchemaDefinition>;
  required?: string[];
}

/**
 * Form-mode elicitation: ask the user to fill a flat form. Servers must not ask for secrets this way.
 * `mode` is optional (absent means form).
 */
export interface ElicitRequestFormParams extends RequestParams {
  mode?: "form";
  /** What the user is asked, shown beside the form. */
  message: string;
  requestedSchema: ElicitationRequestedSchema;
  /** 2025-11-25 only: run the elicitation as a task. */
  task?: LegacyTaskMetadata;
}

/**
 * URL-mode elicitation (2025-11-25+): ask the user to visit a URL (after consent). In 2026-07-28 there is
 * no `elicitationId`; completion is learned by retrying.
 */
export interface ElicitRequestUrlParams extends RequestParams {
  mode: "url";
  message: string;
  /** The full URL to show the user and open after consent. */
  url: string;
  /** 2025-11-25 only: identifies the elicitation for `notifications/elicitation/complete`. */
  elicitationId?: string;
  /** 2025-11-25 only: run the elicitation as a task. */
  task?: LegacyTaskMetadata;
}

/** Params of `elicitation/create`. */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestUrlParams;

/**
 * `elicitation/create`: in the legacy era a server-to-client JSON-RPC request (2025-06-18+); in 2026-07-28
 * an input request embedded in an `input_required` result.
 */
export interface ElicitRequest {
  method: "elicitation/create";
  params: ElicitRequestParams;
}

/** A value the user entered in a form field. */
export type ElicitationValue = string | number | boolean | string[];

/**
 * The user's answer. `accept` with `content` for forms; for URL mode `accept` means consent only.
 */
export interface ElicitResult extends Result {
  action: "accept" | "decline" | "cancel";
  /** Form values, present only with `accept` in form mode. */
  content?: Record<string, ElicitationValue>;
}

/** Params of `notifications/elicitation/complete` (2025-11-25 only; removed in 2026-07-28). */
export interface ElicitationCompleteNotificationParams {
  elicitationId: string;
  _meta?: Meta;
}

/**
 * `data` of the 2025-11-25 URL-elicitation-required error (-32042): the URL elicitations the user must
 * complete before the request can succeed. Must not be emitted in 2026-07-28.
 */
export interface UrlElicitationRequiredErrorData {
  elicitations: ElicitRequestUrlParams[];
  [key: string]: unknown;
}
