import { AuthError } from "./errors.js";
import type { JwsAlgorithm } from "./internal/jose.js";
import type { ClientAuth } from "./internal/token-request.js";
import type { ClientRegistration } from "./token-store.js";
import type { WebCryptoKey } from "./web-crypto-types.js";

/** A client id and how the client authenticates with it (a secret, a private key, or nothing). */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  /** Default: `private_key_jwt` with a key, else the best `client_secret_*` the server supports, else `none`. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt";
  /** For `private_key_jwt`: a WebCrypto private key or a PKCS#8 PEM string. */
  privateKey?: WebCryptoKey | string;
  /** The JWS algorithm of `privateKey`; default ES256. */
  signingAlgorithm?: JwsAlgorithm;
}

/**
 * Credentials of a client registered with one authorization server out of band. They are tied to that
 * server: sent only to the token endpoint in the metadata of `issuer`, only over https (http to a
 * loopback host for development); when discovery leads to another authorization server the provider
 * refuses (`client_issuer_mismatch`) instead of presenting them there.
 */
export interface StaticClient extends ClientCredentials {
  /**
   * The issuer identifier of the authorization server the client is registered with, exactly as its
   * metadata's `issuer` (e.g. `https://auth.example.com`). Required.
   */
  issuer: string;
}

/**
 * The `client` option: one client (for its `issuer`), or a lookup asked with the issuer discovery found
 * (return a client only for an issuer you trust; undefined falls back to CIMD or registration).
 */
export type StaticClientOption = StaticClient | ((issuer: string) => StaticClient | undefined);

function checkIssuer(fixed: StaticClient): void {
  if (typeof fixed.issuer !== "string" || fixed.issuer === "") {
    throw new AuthError(
      "invalid_configuration",
      `the pre-registered client ${fixed.clientId} needs \`issuer\`: the authorization server it is registered with (its credentials go only there)`,
    );
  }
}

/**
 * Checks the `client` option when the provider is created: a single client must name its `issuer`.
 * @throws {AuthError} `invalid_configuration`.
 */
export function checkStaticClientOption(option: StaticClientOption | undefined): void {
  if (option !== undefined && typeof option !== "function") checkIssuer(option);
}

/**
 * The pre-registered client to use at the authorization server `issuer` (named by the protected resource
 * metadata at `prmUrl`), if the option names one.
 *
 * @throws {AuthError} `client_issuer_mismatch` when the client is registered with another issuer;
 *   `invalid_configuration` when it names none.
 */
export function staticClientFor(
  option: StaticClientOption | undefined,
  at: { issuer: string; prmUrl: string },
): StaticClient | undefined {
  const fixed = typeof option === "function" ? option(at.issuer) : option;
  if (fixed === undefined) return undefined;
  checkIssuer(fixed);
  if (fixed.issuer !== at.issuer) {
    throw new AuthError(
      "client_issuer_mismatch",
      `refused to send the pre-registered client ${fixed.clientId} to ${at.issuer} (named by ${at.prmUrl}): its credentials go only to its issuer ${fixed.issuer}`,
    );
  }
  return fixed;
}

/** The registration a pre-registered client stands for. */
export function staticRegistration(fixed: ClientCredentials): ClientRegistration {
  const client: ClientRegistration = { client_id: fixed.clientId, source: "static" };
  if (fixed.clientSecret !== undefined) client.client_secret = fixed.clientSecret;
  if (fixed.tokenEndpointAuthMethod) client.token_endpoint_auth_method = fixed.tokenEndpointAuthMethod;
  return client;
}

/** How a registration authenticates at the token endpoint: a static client's private key rides along. */
export function clientAuthFor(
  fixed: ClientCredentials | undefined,
  registration: ClientRegistration,
): ClientAuth {
  const auth: ClientAuth = { registration };
  if (registration.source === "static" && fixed?.privateKey !== undefined) {
    auth.privateKey = fixed.privateKey;
    if (fixed.signingAlgorithm) auth.signingAlgorithm = fixed.signingAlgorithm;
  }
  return auth;
}
