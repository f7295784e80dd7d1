import type { FetchLike } from "./discovery.js";
import type { DpopKey } from "./dpop.js";
import type { EnterpriseIdp } from "./identity-assertion-grant.js";
import type { StaticClientOption } from "./static-client.js";
import type { TokenStore } from "./token-store.js";

/** The grant a provider uses to get tokens. */
export type OAuthGrant =
  /** A user authorizes in a browser (the default); needs `redirectUri` and `onRedirect`. */
  | "authorization_code"
  /** A machine client authenticates itself (`client` with a secret or private key). */
  | "client_credentials"
  /** RFC 7523 JWT bearer grant with a workload identity assertion (never retried on failure). */
  | { type: "jwt_bearer"; assertion: string | (() => string | Promise<string>) }
  /**
   * Enterprise-Managed Authorization: the user's identity assertion from single sign-on (an ID Token or
   * a SAML assertion; a function is asked again for each new grant, so it can hand a fresh one) is
   * exchanged at the enterprise `idp` for an ID-JAG (RFC 8693), which is presented to the MCP server's
   * authorization server as a JWT bearer grant (RFC 7523) with this client's `client` credentials
   * there. No browser, no redirect. @see `requestIdJag`
   */
  | {
      type: "enterprise_managed";
      identityAssertion: string | (() => string | Promise<string>);
      /** What `identityAssertion` is; default `id_token`. */
      assertionType?: "id_token" | "saml2";
      idp: EnterpriseIdp;
    };

/** Metadata sent in Dynamic Client Registration (RFC 7591); the provider fills the protocol members. */
export interface ClientMetadata {
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  /** `native` for desktop/CLI/loopback redirects, `web` for remote web apps. Default: from `redirectUri`. */
  application_type?: "native" | "web";
  [key: string]: unknown;
}

/** Options of {@link createOAuthProvider}. */
export interface OAuthProviderOptions {
  /** The MCP server URL (the Streamable HTTP endpoint) the provider authorizes requests to. */
  serverUrl: string | URL;
  /** The fetch for discovery, registration and token requests; default the global one. */
  fetch?: FetchLike;
  /** Where credentials are kept per issuer; default `createInMemoryTokenStore()`. */
  store?: TokenStore;
  /** Default `authorization_code`. */
  grant?: OAuthGrant;
  /** The redirect URI (loopback or HTTPS) for the authorization code grant. */
  redirectUri?: string;
  /**
   * The host's redirect step: send the user to `authorizationUrl` (open a browser, print it, ...) and
   * resolve with the URL the authorization server redirected back to (or just its query string).
   * Reject (or abort) to stop the flow.
   */
  onRedirect?: (
    authorizationUrl: URL,
    context: { signal?: AbortSignal },
  ) => Promise<string | URL | URLSearchParams>;
  /** Pre-registered credentials: one client for every issuer, or a lookup by issuer. Tried first. */
  client?: StaticClientOption;
  /** An HTTPS URL of this client's Client ID Metadata Document, used where the server supports CIMD. */
  clientMetadataUrl?: string;
  /** Dynamic Client Registration metadata (the last resort, deprecated in 2026-07-28). */
  clientMetadata?: ClientMetadata;
  /** Ask for `offline_access` when the authorization server lists it, to get a refresh token. Default true. */
  requestOfflineAccess?: boolean;
  /** Step-up authorizations (403 `insufficient_scope`) in a row before giving up. Default 2. */
  maxStepUps?: number;
  /**
   * DPoP (RFC 9449): when true (or a key), tokens are requested bound to a key wherever the authorization
   * server advertises `dpop_signing_alg_values_supported` with the key's algorithm, and presented with
   * fresh proofs. Default false (Bearer).
   */
  dpop?: boolean | DpopKey;
  /** Chooses among the resource's authorization servers; default the first. */
  selectAuthorizationServer?: (issuers: string[]) => string;
  /** Seconds before `expires_at` when a token counts as expired (refresh ahead). Default 30. */
  expirySkewSeconds?: number;
}
