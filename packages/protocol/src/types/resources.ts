import type {
  Annotations,
  BaseMetadata,
  CacheHints,
  Icons,
  Meta,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  RequestParams,
  Result,
} from "./base.js";
import type { BlobResourceContents, TextResourceContents } from "./content.js";
import type { InputResponseRequestParams } from "./mrtr.js";

/**
 * A resource the server can read, as listed by `resources/list`.
 * @see SPEC.md §3.9 Resources
 */
export interface Resource extends BaseMetadata, Icons {
  /** The URI of the resource (RFC 3986). */
  uri: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes before base64 encoding, if known. */
  size?: number;
  annotations?: Annotations;
  _meta?: Meta;
}

/** A family of resources described by an RFC 6570 URI template. */
export interface ResourceTemplate extends BaseMetadata, Icons {
  /** RFC 6570 URI template. */
  uriTemplate: string;
  description?: string;
  /** The MIME type of every resource matching the template, if they all share one. */
  mimeType?: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** Params of `resources/list`. */
export interface ListResourcesRequestParams extends PaginatedRequestParams {}

/** Result of `resources/list`. Cache hints are required in 2026-07-28. */
export interface ListResourcesResult extends PaginatedResult, CacheHints {
  resources: Resource[];
}

/** Params of `resources/templates/list`. */
export interface ListResourceTemplatesRequestParams extends PaginatedRequestParams {}

/** Result of `resources/templates/list`. Cache hints are required in 2026-07-28. */
export interface ListResourceTemplatesResult extends PaginatedResult, CacheHints {
  resourceTemplates: ResourceTemplate[];
}

/**
 * Params of `resources/read`. In 2026-07-28 it is MRTR-capable: a retry carries `inputResponses` and
 * `requestState`.
 */
export interface ReadResourceRequestParams extends RequestParams, InputResponseRequestParams {
  uri: string;
}

/**
 * Result of `resources/read`. A missing resource is an error (-32602 in 2026-07-28, -32002 before), never
 * an empty `contents`. Cache hints are required in 2026-07-28.
 */
export interface ReadResourceResult extends Result, CacheHints {
  contents: (TextResourceContents | BlobResourceContents)[];
}

/** Params of the legacy `resources/subscribe` request (removed in 2026-07-28; use `subscriptions/listen`). */
export interface SubscribeRequestParams extends RequestParams {
  uri: string;
}

/** Params of the legacy `resources/unsubscribe` request (removed in 2026-07-28). */
export interface UnsubscribeRequestParams extends RequestParams {
  uri: string;
}

/** Params of `notifications/resources/updated`: the resource changed and may be read again. */
export interface ResourceUpdatedNotificationParams extends NotificationParams {
  uri: string;
}
