import { AuthError } from "../errors.js";
import { createPkce } from "../pkce.js";
import type { TokenSet } from "../token-store.js";
import { ensureClient } from "./client-registration.js";
import { randomToken } from "./encoding.js";
import { type Binding, type ProviderContext, tokenContext } from "./provider-context.js";
import { requestToken } from "./token-request.js";

/**
 * The authorization code grant with PKCE S256: sends the user to the authorization endpoint (with
 * `state` and the RFC 8707 `resource`), checks `iss` (RFC 9207) and `state` on the response, and
 * exchanges the code.
 *
 * @throws {AuthError} `pkce_not_supported`, `invalid_configuration`, `redirect_failed`,
 *   `invalid_authorization_response`, `authorization_denied`, `token_request_failed`.
 */
export async function authorizationCodeGrant(
  ctx: ProviderContext,
  b: Binding,
  scope: string | undefined,
  signal: AbortSignal | undefined,
): Promise<TokenSet> {
  const { options } = ctx;
  const methods = b.meta.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes("S256")) {
    throw new AuthError(
      "pkce_not_supported",
      `authorization server ${b.issuer} does not advertise PKCE S256 (code_challenge_methods_supported)`,
    );
  }
  if (!b.meta.authorization_endpoint) {
    throw new AuthError(
      "invalid_configuration",
      `authorization server ${b.issuer} has no authorization_endpoint`,
    );
  }
  if (!options.onRedirect || !options.redirectUri) {
    throw new AuthError(
      "invalid_configuration",
      "the authorization code grant needs `redirectUri` and `onRedirect`",
    );
  }
  const client = await ensureClient(ctx, b, signal);
  const registration = client.registration;
  const pkce = await createPkce();
  const state = randomToken(24);
  const url = new URL(b.meta.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", registration.client_id);
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("code_challenge", pkce.challenge);
  url.searchParams.set("code_challenge_method", pkce.method);
  url.searchParams.set("state", state);
  if (scope) url.searchParams.set("scope", scope);
  url.searchParams.set("resource", b.resource);

  let returned: string | URL | URLSearchParams;
  try {
    returned = await options.onRedirect(url, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof AuthError) throw error;
    throw new AuthError("redirect_failed", "the redirect step did not complete", { cause: error });
  }
  const params =
    returned instanceof URLSearchParams
      ? returned
      : returned instanceof URL
        ? returned.searchParams
        : returned.includes("://")
          ? new URL(returned).searchParams
          : new URLSearchParams(returned.replace(/^\?/, ""));
  // RFC 9207 first, before trusting anything else in the response (error responses included).
  const iss = params.get("iss");
  if (iss !== null) {
    if (iss !== b.meta.issuer) {
      throw new AuthError(
        "invalid_authorization_response",
        `authorization response iss ${iss} is not the issuer ${b.meta.issuer}`,
      );
    }
  } else if (b.meta.authorization_response_iss_parameter_supported === true) {
    throw new AuthError(
      "invalid_authorization_response",
      `authorization server ${b.meta.issuer} advertises the iss parameter but the response has none`,
    );
  }
  if (params.get("state") !== state) {
    throw new AuthError("invalid_authorization_response", "authorization response state does not match");
  }
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description") ?? undefined;
    throw new AuthError("authorization_denied", `authorization was refused: ${error}`, {
      oauthError: error,
      ...(description !== undefined ? { oauthErrorDescription: description } : {}),
    });
  }
  const code = params.get("code");
  if (!code) throw new AuthError("invalid_authorization_response", "authorization response has no code");
  return requestToken(
    await tokenContext(ctx, b, client, signal),
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: options.redirectUri,
      code_verifier: pkce.verifier,
      resource: b.resource,
    },
    scope,
  );
}
