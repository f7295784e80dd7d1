/**
 * What {@link withAuth} asks to authorize HTTP requests: headers per request, what to do on a 401/403,
 * and every response to see. `withAuth(provider, { fetch })` is the one place a client transport's
 * requests get credentials (the transports take a `fetch` and have no auth hook of their own): it passes
 * the request to `headers`, calls `onUnauthorized` on 401 and 403, re-sends while it answers true
 * (bounded), and reports every response to `onResponse`, which gives DPoP and step-up authorization too.
 */
export interface AuthProvider {
  /**
   * Headers to add to one outgoing request: `Authorization` (`Bearer …` or `DPoP …`) and, for a
   * DPoP-bound token, a fresh `DPoP` proof for exactly this method and URL. Empty before any token exists.
   * Called once per HTTP request, including each retry.
   */
  headers(request?: AuthRequestInfo): Promise<Record<string, string>>;
  /**
   * Called with a 401 or 403 response (its body unread). Resolves true when the provider obtained,
   * refreshed or stepped up a token, or learned a DPoP nonce, and the request should be sent again with
   * fresh {@link headers}; false when retrying cannot help (the caller then surfaces the response).
   *
   * @throws {AuthError} when authorization is refused (discovery failure, PKCE or `iss` check, resource
   *   mismatch, step-up limit, token endpoint error); the caller rejects the request with it.
   */
  onUnauthorized(response: Response, request?: UnauthorizedRequestInfo): Promise<boolean>;
  /** Sees every response (DPoP nonces ride on successful responses too; success resets step-up counting). */
  onResponse?(response: Response, request?: AuthRequestInfo): void;
}

/** The request an {@link AuthProvider} is asked about. */
export interface AuthRequestInfo {
  /** The absolute request URL. */
  url: string;
  /** The HTTP method, upper case. */
  method: string;
  signal?: AbortSignal;
}

/** The request a 401/403 answered, as {@link AuthProvider.onUnauthorized} is told about it. */
export interface UnauthorizedRequestInfo extends AuthRequestInfo {
  /**
   * The `Authorization` header the answered request carried (null: none). With it the provider knows
   * exactly which token was refused; without it (a transport that passes only the response) it assumes
   * the last token it handed out was, which can cost an extra refresh under concurrent requests.
   */
  authorization: string | null;
}
