import type { UiResourceCsp, UiResourcePermissions } from "../ui-meta.js";

/**
 * The Content-Security-Policy a view is loaded under, built from its `_meta.ui.csp`.
 *
 * Starts from the spec's restrictive default (`default-src 'none'`; inline script and style; `data:`
 * images and media; no connections) and adds only the declared origins, each to its own directives:
 * `connectDomains` to `connect-src`, `resourceDomains` to script/style/img/font/media, `frameDomains`
 * to `frame-src` (else `'none'`), `baseUriDomains` to `base-uri` (else `'self'`). `object-src` and
 * `form-action` are always `'none'`.
 *
 * Never loosened: an entry that is not a plain origin (`https://host[:port]`, `https://*.host`, `wss://…`)
 * is dropped, so a server cannot smuggle a keyword (`'unsafe-eval'`, `*`) or a second directive (`;`)
 * into the policy. With no `connectDomains` it is `connect-src 'none'` (the spec's construction example
 * says `'self'`; its restrictive default, which we follow, says `'none'`).
 *
 * Self-contained on purpose: the sandbox proxy page embeds this function's source, so the policy the
 * proxy applies is exactly this one.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#host-behavior
 */
export function viewCsp(csp?: UiResourceCsp | undefined): string {
  const origin = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]{1,5})?$/i;
  const pick = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.filter((entry): entry is string => typeof entry === "string" && origin.test(entry))
      : [];
  const connect = pick(csp?.connectDomains);
  const resources = pick(csp?.resourceDomains);
  const frames = pick(csp?.frameDomains);
  const bases = pick(csp?.baseUriDomains);
  const join = (...parts: string[]) => parts.filter((part) => part !== "").join(" ");
  const res = resources.join(" ");
  return [
    "default-src 'none'",
    `script-src ${join("'self'", "'unsafe-inline'", res)}`,
    `style-src ${join("'self'", "'unsafe-inline'", res)}`,
    `img-src ${join("'self'", "data:", res)}`,
    `font-src ${join("'self'", res)}`,
    `media-src ${join("'self'", "data:", res)}`,
    `connect-src ${connect.length > 0 ? connect.join(" ") : "'none'"}`,
    `frame-src ${frames.length > 0 ? frames.join(" ") : "'none'"}`,
    "object-src 'none'",
    "form-action 'none'",
    `base-uri ${bases.length > 0 ? bases.join(" ") : "'self'"}`,
  ].join("; ");
}

/**
 * The iframe `allow` attribute (Permissions Policy) for a view's `_meta.ui.permissions`: `camera`,
 * `microphone`, `geolocation`, `clipboard-write`, each only when asked for; empty when none was.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#4-content-security-policy-enforcement
 */
export function permissionsAllow(permissions?: UiResourcePermissions | undefined): string {
  if (typeof permissions !== "object" || permissions === null) return "";
  const features: string[] = [];
  if (permissions.camera) features.push("camera");
  if (permissions.microphone) features.push("microphone");
  if (permissions.geolocation) features.push("geolocation");
  if (permissions.clipboardWrite) features.push("clipboard-write");
  return features.join("; ");
}

/**
 * Narrows a declared CSP to what the host approves: each list is the intersection of the declared
 * origins and `approved(kind, origin)`. The result never holds an origin the server did not declare.
 */
export function restrictCsp(
  declared: UiResourceCsp | undefined,
  approved: (kind: keyof UiResourceCsp, origin: string) => boolean,
): UiResourceCsp {
  const kinds = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
  const result: Record<string, string[]> = {};
  for (const kind of kinds) {
    const list = declared?.[kind];
    if (Array.isArray(list)) result[kind] = list.filter((origin) => approved(kind, origin));
  }
  return result as UiResourceCsp;
}
