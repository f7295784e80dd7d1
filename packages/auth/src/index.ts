// The public surface of @mcpkit/auth. Explicit named exports only: a test snapshots this list.
export { type ClientAssertionInput, createClientAssertion } from "./client-assertion.js";
export {
  type AuthorizationServerMetadata,
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  type DiscoveryOptions,
  discoverAuthorizationServer,
  discoverProtectedResource,
  type FetchLike,
  isResourceAllowed,
  type ProtectedResourceMetadata,
  protectedResourceMetadataUrls,
} from "./discovery.js";
export { createDpopProof, type DpopKey, type DpopProofInput, generateDpopKey } from "./dpop.js";
export { AuthError, type AuthErrorCode, InvalidTokenError } from "./errors.js";
export {
  type EnterpriseIdp,
  type IdJag,
  type IdJagRequest,
  requestIdJag,
} from "./identity-assertion-grant.js";
export type { JwsAlgorithm } from "./internal/jose.js";
export { createOAuthProvider, type OAuthProvider } from "./oauth-provider.js";
export type { ClientMetadata, OAuthGrant, OAuthProviderOptions } from "./oauth-provider-options.js";
export { createPkce, type PkcePair } from "./pkce.js";
export type { AuthProvider, AuthRequestInfo, UnauthorizedRequestInfo } from "./provider.js";
export {
  authInfoOf,
  type ChallengeOptions,
  createProtectedResource,
  type ProtectedResource,
  type ProtectedResourceOptions,
} from "./resource-server.js";
export type { ClientCredentials, StaticClient, StaticClientOption } from "./static-client.js";
export {
  type ClientRegistration,
  createInMemoryTokenStore,
  type IssuerCredentials,
  type TokenSet,
  type TokenStore,
} from "./token-store.js";
export {
  type AuthInfo,
  createIntrospectionVerifier,
  createJwtVerifier,
  type IntrospectionVerifierOptions,
  type JwtVerifierOptions,
  type TokenVerifier,
  type VerifyContext,
} from "./verifiers.js";
export type { Jwk, WebCryptoKey } from "./web-crypto-types.js";
export { type WithAuthOptions, withAuth } from "./with-auth.js";
export {
  type AuthChallenge,
  formatChallenge,
  parseWwwAuthenticate,
  type ResourceChallenge,
  readResourceChallenge,
} from "./www-authenticate.js";
