import { AuthError } from "./errors.js";
import { isRecord } from "./internal/encoding.js";
import { checkDiscoveryUrl, checkResourceMetadataUrl, isRedirect } from "./internal/url-rules.js";

/** A `fetch`-compatible function; every network call of this package goes through one. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * RFC 9728 protected resource metadata, as served by an MCP server. Only the members MCP uses are typed;
 * the rest are kept as-is.
 */
export interface ProtectedResourceMetadata {
  /** The protected resource's identifier: the canonical URL of the MCP server (or a prefix of it). */
  resource: string;
  /** Issuer identifiers of the authorization servers (at least one for MCP). */
  authorization_servers: string[];
  /** Scopes the resource uses. */
  scopes_supported?: string[];
  /** Ways to present a token; MCP uses `header`. */
  bearer_methods_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
  /** RFC 9449: JWS algorithms the resource accepts for DPoP proofs. */
  dpop_signing_alg_values_supported?: string[];
  dpop_bound_access_tokens_required?: boolean;
  [key: string]: unknown;
}

/** RFC 8414 / OpenID Connect Discovery authorization server metadata; the members MCP uses are typed. */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  code_challenge_methods_supported?: string[];
  /** RFC 9207: the authorization response carries `iss`. */
  authorization_response_iss_parameter_supported?: boolean;
  /** Client ID Metadata Documents are accepted as `client_id`. */
  client_id_metadata_document_supported?: boolean;
  /** RFC 9449: JWS algorithms accepted in DPoP proofs. */
  dpop_signing_alg_values_supported?: string[];
  introspection_endpoint?: string;
  revocation_endpoint?: string;
  jwks_uri?: string;
  [key: string]: unknown;
}

/**
 * The protected resource metadata URLs to try for an MCP server URL, in the spec's order: the path-aware
 * well-known URL (`/.well-known/oauth-protected-resource/<path>`), then the root one. A server URL with no
 * path gives only the root URL.
 *
 * @see RFC 9728 §3.1; MCP authorization, "Protected Resource Metadata Discovery Requirements"
 */
export function protectedResourceMetadataUrls(serverUrl: string | URL): string[] {
  const url = new URL(serverUrl);
  const path = url.pathname.replace(/\/+$/, "");
  const root = `${url.origin}/.well-known/oauth-protected-resource`;
  return path ? [`${root}${path}`, root] : [root];
}

/**
 * The authorization server metadata URLs to try for an issuer, in the order MCP requires: for an issuer
 * with a path `/t1`, `/.well-known/oauth-authorization-server/t1`, `/.well-known/openid-configuration/t1`,
 * `/t1/.well-known/openid-configuration`; for an issuer without a path, `/.well-known/oauth-authorization-server`
 * then `/.well-known/openid-configuration`. Root URLs are never tried for an issuer with a path.
 *
 * @see RFC 8414 §3.1; OpenID Connect Discovery §4; MCP "Authorization Server Metadata Discovery"
 */
export function authorizationServerMetadataUrls(issuer: string | URL): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  if (!path) {
    return [
      `${url.origin}/.well-known/oauth-authorization-server`,
      `${url.origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Whether protected resource metadata naming `resource` may be used for the MCP server at `serverUrl`:
 * same origin, and `resource`'s path equals the server's path or is a path-segment prefix of it.
 * Fragments never match.
 *
 * @see RFC 9728 §3.3 (the resource must be the one being accessed); RFC 8707
 */
export function isResourceAllowed(serverUrl: string | URL, resource: string): boolean {
  let server: URL;
  let candidate: URL;
  try {
    server = new URL(serverUrl);
    candidate = new URL(resource);
  } catch {
    return false;
  }
  if (candidate.hash || candidate.origin !== server.origin) return false;
  const base = candidate.pathname.replace(/\/+$/, "");
  const path = server.pathname.replace(/\/+$/, "");
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The canonical resource URI of an MCP server URL for RFC 8707 `resource`: no fragment, no query,
 * lower-case scheme and host (done by `URL`), no trailing slash on a non-root path.
 */
export function canonicalResourceUri(serverUrl: string | URL): string {
  const url = new URL(serverUrl);
  url.hash = "";
  url.search = "";
  const text = url.href;
  return url.pathname === "/" ? text.replace(/\/$/, "") : text.replace(/\/+$/, "");
}

/** What one candidate metadata URL gave: its JSON body (`undefined` when not 2xx or not JSON), or a failure. */
type Candidate = { body: unknown } | { failure: unknown };

/**
 * GETs one candidate metadata document, following no redirect. An abort rethrows; a network failure is
 * returned, not thrown.
 *
 * @throws {AuthError} `unsafe_url` when the answer is a redirect.
 */
async function fetchCandidate(
  fetchFn: FetchLike,
  url: string,
  signal: AbortSignal | undefined,
): Promise<Candidate> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: "GET",
      headers: { accept: "application/json" },
      redirect: "manual",
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return { failure: error };
  }
  if (isRedirect(response)) {
    await response.body?.cancel();
    throw new AuthError(
      "unsafe_url",
      `refused the redirect of ${url} (${response.status}): discovery follows no redirects`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { body: undefined };
  }
  return { body: await response.json().catch(() => undefined) };
}

/** Options of the discovery functions. */
export interface DiscoveryOptions {
  /** The fetch to use; default the global one. */
  fetch?: FetchLike;
  signal?: AbortSignal;
}

/**
 * Finds the protected resource metadata of an MCP server: the `resource_metadata` URL from the
 * `WWW-Authenticate` challenge when given, else (or when it fails) the path-aware then the root
 * well-known URL. Checks that the metadata's `resource` matches the server (see {@link isResourceAllowed}).
 *
 * Every URL is checked before it is fetched: https only (http only to loopback when the MCP server is on
 * loopback), no loopback, private or link-local target unless the MCP server is in that same class, no
 * redirect followed; `resource_metadata` only on the server's own origin or at the well-known path
 * `/.well-known/oauth-protected-resource[/…]`.
 *
 * @throws {AuthError} `resource_metadata_not_found` when no URL answers with usable metadata (at least one
 *   authorization server), `resource_mismatch` when the metadata is for another resource, `unsafe_url`
 *   when a URL breaks a rule above (the message names the URL and the rule).
 */
export async function discoverProtectedResource(
  serverUrl: string | URL,
  options: DiscoveryOptions & { resourceMetadataUrl?: string | undefined } = {},
): Promise<{ metadata: ProtectedResourceMetadata; url: string }> {
  const fetchFn = options.fetch ?? fetch;
  const server = new URL(serverUrl);
  const candidates = [
    ...(options.resourceMetadataUrl
      ? [checkResourceMetadataUrl(options.resourceMetadataUrl, server).href]
      : []),
    ...protectedResourceMetadataUrls(server),
  ];
  const tried: string[] = [];
  let lastError: unknown;
  for (const url of candidates) {
    if (tried.includes(url)) continue;
    checkDiscoveryUrl(url, server, "protected resource metadata URL");
    tried.push(url);
    const got = await fetchCandidate(fetchFn, url, options.signal);
    if ("failure" in got) {
      lastError = got.failure;
      continue;
    }
    const body = got.body;
    if (
      !isRecord(body) ||
      typeof body.resource !== "string" ||
      !Array.isArray(body.authorization_servers) ||
      !body.authorization_servers.some((s) => typeof s === "string")
    ) {
      continue;
    }
    const metadata = body as ProtectedResourceMetadata;
    if (!isResourceAllowed(serverUrl, metadata.resource)) {
      throw new AuthError(
        "resource_mismatch",
        `protected resource metadata at ${url} is for ${metadata.resource}, not for ${new URL(serverUrl).href}`,
      );
    }
    return { metadata, url };
  }
  throw new AuthError(
    "resource_metadata_not_found",
    `no protected resource metadata for ${new URL(serverUrl).href} (tried ${tried.join(", ")})`,
    lastError === undefined ? {} : { cause: lastError },
  );
}

/**
 * Finds an authorization server's metadata through the OAuth then OpenID Connect well-known URLs (see
 * {@link authorizationServerMetadataUrls}) and checks that its `issuer` is exactly (simple string
 * comparison) the issuer it was looked up with.
 *
 * With `serverUrl` (the MCP server whose metadata named the issuer) the issuer must pass the rules of
 * {@link discoverProtectedResource} relative to that server; without it (an issuer the application
 * configured) only https, or http to loopback, is required. No redirect is followed.
 *
 * @throws {AuthError} `issuer_mismatch` when a document names another issuer (the document is never used),
 *   `authorization_server_metadata_not_found` when no URL answers, `unsafe_url` when the issuer or a
 *   metadata URL breaks a rule (the message names the URL and the rule).
 */
export async function discoverAuthorizationServer(
  issuer: string,
  options: DiscoveryOptions & { serverUrl?: string | URL } = {},
): Promise<AuthorizationServerMetadata> {
  const fetchFn = options.fetch ?? fetch;
  const server = options.serverUrl === undefined ? undefined : new URL(options.serverUrl);
  const checked = checkDiscoveryUrl(issuer, server, "authorization server");
  if (checked.search || checked.hash) {
    throw new AuthError(
      "unsafe_url",
      `refused authorization server ${issuer}: an issuer identifier has no query or fragment (RFC 8414 §2)`,
    );
  }
  const urls = authorizationServerMetadataUrls(issuer);
  let lastError: unknown;
  for (const url of urls) {
    const got = await fetchCandidate(fetchFn, url, options.signal);
    if ("failure" in got) {
      lastError = got.failure;
      continue;
    }
    const body = got.body;
    if (!isRecord(body) || typeof body.issuer !== "string") continue;
    if (body.issuer !== issuer) {
      throw new AuthError(
        "issuer_mismatch",
        `authorization server metadata at ${url} names issuer ${body.issuer}, expected ${issuer}`,
      );
    }
    return body as AuthorizationServerMetadata;
  }
  throw new AuthError(
    "authorization_server_metadata_not_found",
    `no authorization server metadata for ${issuer} (tried ${urls.join(", ")})`,
    lastError === undefined ? {} : { cause: lastError },
  );
}
