import type { Meta, NotificationParams, RequestParams, Result } from "./base.js";

/** A root the client exposes: a `file://` URI the server may work within. Deprecated in 2026-07-28. */
export interface Root {
  /** Currently always `file://…`. */
  uri: string;
  name?: string;
  _meta?: Meta;
}

/** Params of `roots/list`. */
export interface ListRootsRequestParams extends RequestParams {}

/**
 * `roots/list`: a server-to-client request in the legacy era; an embedded input request in 2026-07-28
 * (where its params carry no request `_meta`).
 */
export interface ListRootsRequest {
  method: "roots/list";
  params?: ListRootsRequestParams;
}

/** The client's roots. */
export interface ListRootsResult extends Result {
  roots: Root[];
}

/** Params of `notifications/roots/list_changed` (legacy only; removed in 2026-07-28). */
export interface RootsListChangedNotificationParams extends NotificationParams {}
