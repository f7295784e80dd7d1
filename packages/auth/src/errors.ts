/**
 * Why an authorization step stopped. Each code names one refusal or failure the client can meet; the
 * string is stable and meant for `switch` statements and logs.
 */
export type AuthErrorCode =
  /** No protected resource metadata could be found (RFC 9728). */
  | "resource_metadata_not_found"
  /** The protected resource metadata names a `resource` that is not the MCP server being accessed. */
  | "resource_mismatch"
  /** No authorization server metadata could be found at any well-known URL. */
  | "authorization_server_metadata_not_found"
  /** The authorization server metadata's `issuer` differs from the issuer used to find it (RFC 8414 §3.3). */
  | "issuer_mismatch"
  /** The authorization server does not advertise PKCE `S256` (MCP requires it). */
  | "pkce_not_supported"
  /** No way to obtain a client id: no pre-registration, no usable CIMD, no registration endpoint. */
  | "registration_unavailable"
  /** Dynamic client registration was refused. */
  | "registration_failed"
  /** The authorization response failed validation: `state` or `iss` (RFC 9207) mismatch or missing. */
  | "invalid_authorization_response"
  /** The authorization server answered the authorization request with an error. */
  | "authorization_denied"
  /** The authorization server's metadata does not list the grant type the provider is configured for. */
  | "grant_not_supported"
  /** The token endpoint refused the request (its OAuth `error` is in {@link AuthError.oauthError}). */
  | "token_request_failed"
  /** Step-up authorization was retried the maximum number of times without success. */
  | "step_up_limit"
  /** The host's redirect callback did not deliver an authorization response. */
  | "redirect_failed"
  /** The configuration cannot work (for example a machine grant without client credentials). */
  | "invalid_configuration"
  /**
   * A URL was refused before anything was sent to it: discovery fetches only https (loopback http for an
   * MCP server on loopback), no private, loopback or link-local target unless the MCP server is there,
   * no redirect, `resource_metadata` only on the server's origin or well-known path; credentials go only
   * over https (loopback http for development). The message names the URL and the rule.
   */
  | "unsafe_url"
  /**
   * Discovery led to an authorization server that is not the `issuer` of the pre-registered client: its
   * id and secret are sent only to the authorization server it is registered with.
   */
  | "client_issuer_mismatch";

/**
 * A local authorization failure of the MCP client: discovery, a refusal required by the spec, or an
 * authorization server's error response. It never crosses the wire.
 *
 * `oauthError` / `oauthErrorDescription` / `status` carry the authorization server's answer when there was
 * one (RFC 6749 §5.2).
 */
export class AuthError extends Error {
  override readonly name = "AuthError";
  /** What failed; see {@link AuthErrorCode}. */
  readonly code: AuthErrorCode;
  /** The OAuth `error` value from the authorization server, when it sent one. */
  readonly oauthError: string | undefined;
  /** The OAuth `error_description`, when the server sent one. */
  readonly oauthErrorDescription: string | undefined;
  /** The HTTP status of the answer that caused this error, when there was one. */
  readonly status: number | undefined;

  constructor(
    code: AuthErrorCode,
    message: string,
    options: { cause?: unknown; oauthError?: string; oauthErrorDescription?: string; status?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.oauthError = options.oauthError;
    this.oauthErrorDescription = options.oauthErrorDescription;
    this.status = options.status;
  }
}

/**
 * Thrown by a {@link TokenVerifier} when a token is missing, malformed, expired, not yet valid, issued by
 * another issuer or for another audience. The resource server answers it with 401 `invalid_token`.
 */
export class InvalidTokenError extends Error {
  override readonly name = "InvalidTokenError";
}
