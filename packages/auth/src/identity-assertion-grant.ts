import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  type FetchLike,
} from "./discovery.js";
import { AuthError } from "./errors.js";
import { requestTokenResponse } from "./internal/token-request.js";
import { type ClientCredentials, clientAuthFor, staticRegistration } from "./static-client.js";

/** RFC 8693 grant type of the token exchange request. */
const TOKEN_EXCHANGE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange";
/** The token type of an Identity Assertion JWT Authorization Grant (ID-JAG). */
const ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/** The RFC 8693 token types of the identity assertions an enterprise IdP issues at single sign-on. */
const SUBJECT_TOKEN_TYPES = {
  id_token: "urn:ietf:params:oauth:token-type:id_token",
  saml2: "urn:ietf:params:oauth:token-type:saml2",
} as const;

/** The enterprise identity provider (IdP) the user signed in to the MCP client with. */
export interface EnterpriseIdp {
  /** The IdP's issuer; its token endpoint is discovered (RFC 8414, then OpenID Connect) unless given. */
  issuer?: string;
  /** The IdP's token endpoint; skips discovery. One of `issuer` or `tokenEndpoint` is required. */
  tokenEndpoint?: string;
  /**
   * This client as registered at the IdP for single sign-on. When the IdP authenticates the client at
   * sign-on it must authenticate the exchange too; without a secret or key only `client_id` is sent.
   */
  client?: ClientCredentials;
}

/** Inputs of {@link requestIdJag}. */
export interface IdJagRequest {
  idp: EnterpriseIdp;
  /** The identity assertion from single sign-on: an OpenID Connect ID Token or a SAML assertion. */
  identityAssertion: string;
  /** What `identityAssertion` is; default `id_token`. */
  assertionType?: keyof typeof SUBJECT_TOKEN_TYPES;
  /** The issuer of the MCP server's authorization server (the ID-JAG's `aud`). */
  audience: string;
  /** The RFC 9728 resource identifier of the MCP server (the ID-JAG's `resource`). */
  resource: string;
  /** Space-separated scopes at the MCP server. */
  scope?: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
}

/** An Identity Assertion JWT Authorization Grant, as the IdP issued it. */
export interface IdJag {
  /** The signed ID-JAG, to present as the RFC 7523 `assertion`. */
  assertion: string;
  /** The scopes granted when the IdP said (may be fewer than asked). */
  scope?: string;
  /** Epoch milliseconds when the grant expires, when the IdP said. */
  expiresAt?: number;
}

/**
 * Exchanges an identity assertion for an ID-JAG at the enterprise IdP: the RFC 8693 token exchange of
 * Enterprise-Managed Authorization, with `requested_token_type` ID-JAG, `audience` the MCP server's
 * authorization server issuer and `resource` the MCP server. The grant is then presented to that
 * authorization server with the JWT bearer grant (RFC 7523) — `createOAuthProvider` does both with
 * `grant: { type: "enterprise_managed", ... }`; this function is the first step alone, for hosts that
 * run the second themselves.
 *
 * It does not verify the ID-JAG (the authorization server does) and never caches it.
 *
 * @throws AuthError `token_request_failed` when the IdP refuses the exchange (its OAuth error in
 *   `oauthError`) or answers with another `issued_token_type`; `invalid_configuration` without an issuer
 *   or token endpoint; `authorization_server_metadata_not_found` when the IdP cannot be discovered.
 * @see ext-auth "Enterprise-Managed Authorization" §4; RFC 8693 §2; draft-ietf-oauth-identity-assertion-authz-grant
 */
export async function requestIdJag(request: IdJagRequest): Promise<IdJag> {
  const fetchFn: FetchLike = request.fetch ?? ((input, init) => fetch(input, init));
  const signal = request.signal;
  const meta = await idpMetadata(request.idp, fetchFn, signal);
  const params: Record<string, string> = {
    grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    audience: request.audience,
    resource: request.resource,
    subject_token: request.identityAssertion,
    subject_token_type: SUBJECT_TOKEN_TYPES[request.assertionType ?? "id_token"],
  };
  if (request.scope) params.scope = request.scope;
  const client = request.idp.client;
  const { tokens, body } = await requestTokenResponse(
    {
      fetch: fetchFn,
      meta,
      client: client && clientAuthFor(client, staticRegistration(client)),
      // The ID-JAG is not an access token and is never bound to a DPoP key.
      dpop: undefined,
      nonces: new Map(),
      signal,
    },
    params,
    request.scope,
  );
  // RFC 8693 §2.2.1: the IdP says what it issued; anything but an ID-JAG is not a grant we may present.
  if (body.issued_token_type !== ID_JAG_TOKEN_TYPE) {
    throw new AuthError(
      "token_request_failed",
      `the identity provider's token exchange issued ${JSON.stringify(body.issued_token_type)}, not an ID-JAG`,
    );
  }
  const jag: IdJag = { assertion: tokens.access_token };
  if (typeof body.scope === "string") jag.scope = body.scope;
  if (tokens.expires_at !== undefined) jag.expiresAt = tokens.expires_at;
  return jag;
}

/** The IdP's metadata: discovered from its issuer, or a stand-in naming the given token endpoint. */
async function idpMetadata(
  idp: EnterpriseIdp,
  fetchFn: FetchLike,
  signal: AbortSignal | undefined,
): Promise<AuthorizationServerMetadata> {
  if (idp.tokenEndpoint) {
    // The issuer is only the audience of a private_key_jwt assertion here; RFC 7523 allows the endpoint.
    return { issuer: idp.issuer ?? idp.tokenEndpoint, token_endpoint: idp.tokenEndpoint };
  }
  if (!idp.issuer) {
    throw new AuthError("invalid_configuration", "the enterprise IdP needs an `issuer` or a `tokenEndpoint`");
  }
  return discoverAuthorizationServer(idp.issuer, { fetch: fetchFn, ...(signal ? { signal } : {}) });
}
