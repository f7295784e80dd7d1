/**
 * The origins a view may reach, by kind; each entry an origin such as `https://api.example.com` or
 * `https://*.example.com`. Omitted or empty: none (the restrictive default).
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#ui-resource-format
 */
export interface UiResourceCsp {
  /** fetch, XHR, WebSocket (`connect-src`). */
  readonly connectDomains?: readonly string[] | undefined;
  /** Scripts, styles, images, fonts, media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  readonly resourceDomains?: readonly string[] | undefined;
  /** Nested iframes (`frame-src`); none: `frame-src 'none'`. */
  readonly frameDomains?: readonly string[] | undefined;
  /** The document's `<base>` (`base-uri`); none: `base-uri 'self'`. */
  readonly baseUriDomains?: readonly string[] | undefined;
}

/** Browser features a view asks for; a host MAY grant them through the iframe's `allow` attribute. */
export interface UiResourcePermissions {
  readonly camera?: Record<string, never> | undefined;
  readonly microphone?: Record<string, never> | undefined;
  readonly geolocation?: Record<string, never> | undefined;
  readonly clipboardWrite?: Record<string, never> | undefined;
}

/** A view's `_meta.ui`: on its `resources/list` entry and on its `resources/read` content. */
export interface UiResourceMeta {
  readonly csp?: UiResourceCsp | undefined;
  readonly permissions?: UiResourcePermissions | undefined;
  /** A dedicated sandbox origin; its format is the host's to define. */
  readonly domain?: string | undefined;
  /** Asks for a visible border and background (`true`) or none (`false`); omitted: the host decides. */
  readonly prefersBorder?: boolean | undefined;
}
