import { randomToken } from "./internal/encoding.js";
import { importPkcs8Pem, type JwsAlgorithm, signJwt } from "./internal/jose.js";
import type { WebCryptoKey } from "./web-crypto-types.js";

/** Inputs of a `private_key_jwt` client assertion. */
export interface ClientAssertionInput {
  clientId: string;
  /** The authorization server's issuer identifier (the recommended `aud`). */
  audience: string;
  /** A WebCrypto private key, or a PKCS#8 PEM string. */
  privateKey: WebCryptoKey | string;
  /** The JWS algorithm; default ES256. */
  alg?: JwsAlgorithm;
  /** Lifetime in seconds; default 300. */
  lifetimeSeconds?: number;
  /** A `kid` header when the authorization server needs it to pick the key. */
  keyId?: string;
}

/**
 * Signs a client assertion for `private_key_jwt` token endpoint authentication: `iss` and `sub` are the
 * client id, `aud` the authorization server issuer, a fresh `jti`, `iat` and `exp`.
 *
 * @see RFC 7523 §3, RFC 7521 §4.2; OpenID Connect Core §9
 */
export async function createClientAssertion(input: ClientAssertionInput): Promise<string> {
  const alg = input.alg ?? "ES256";
  const key =
    typeof input.privateKey === "string" ? await importPkcs8Pem(input.privateKey, alg) : input.privateKey;
  const now = Math.floor(Date.now() / 1000);
  const header: Record<string, unknown> & { alg: JwsAlgorithm } = { alg, typ: "JWT" };
  if (input.keyId !== undefined) header.kid = input.keyId;
  return signJwt(
    header,
    {
      iss: input.clientId,
      sub: input.clientId,
      aud: input.audience,
      jti: randomToken(16),
      iat: now,
      exp: now + (input.lifetimeSeconds ?? 300),
    },
    key,
  );
}
