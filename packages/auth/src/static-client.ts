import type { JwsAlgorithm } from "./internal/jose.js";
import type { ClientAuth } from "./internal/token-request.js";
import type { ClientRegistration } from "./token-store.js";

/** Credentials of a client registered with an authorization server out of band. */
export interface StaticClient {
  clientId: string;
  clientSecret?: string;
  /** Default: `private_key_jwt` with a key, else the best `client_secret_*` the server supports, else `none`. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt";
  /** For `private_key_jwt`: a WebCrypto private key or a PKCS#8 PEM string. */
  privateKey?: CryptoKey | string;
  /** The JWS algorithm of `privateKey`; default ES256. */
  signingAlgorithm?: JwsAlgorithm;
}

/** The `client` option: one client for every issuer, or a lookup by issuer. */
export type StaticClientOption = StaticClient | ((issuer: string) => StaticClient | undefined);

/** The pre-registered client for `issuer`, if the option names one. */
export function staticClientFor(
  option: StaticClientOption | undefined,
  issuer: string,
): StaticClient | undefined {
  return typeof option === "function" ? option(issuer) : option;
}

/** The registration a pre-registered client stands for. */
export function staticRegistration(fixed: StaticClient): ClientRegistration {
  const client: ClientRegistration = { client_id: fixed.clientId, source: "static" };
  if (fixed.clientSecret !== undefined) client.client_secret = fixed.clientSecret;
  if (fixed.tokenEndpointAuthMethod) client.token_endpoint_auth_method = fixed.tokenEndpointAuthMethod;
  return client;
}

/** How a registration authenticates at the token endpoint: a static client's private key rides along. */
export function clientAuthFor(fixed: StaticClient | undefined, registration: ClientRegistration): ClientAuth {
  const auth: ClientAuth = { registration };
  if (registration.source === "static" && fixed?.privateKey !== undefined) {
    auth.privateKey = fixed.privateKey;
    if (fixed.signingAlgorithm) auth.signingAlgorithm = fixed.signingAlgorithm;
  }
  return auth;
}
