import { base64UrlEncode, randomToken, sha256 } from "./internal/encoding.js";
import { algorithmParams, type JwsAlgorithm, jwkThumbprint, publicJwk, signJwt } from "./internal/jose.js";
import type { Jwk, WebCryptoKey } from "./web-crypto-types.js";

/** A DPoP key pair: the non-extractable private key that signs proofs and the public JWK put in them. */
export interface DpopKey {
  alg: JwsAlgorithm;
  privateKey: WebCryptoKey;
  publicJwk: Jwk;
  /** RFC 7638 thumbprint of the public key: the `cnf.jkt` a bound token carries. */
  thumbprint: string;
}

/**
 * Generates a DPoP key pair with WebCrypto (ES256 by default). The private key is not extractable.
 *
 * @see RFC 9449 §4
 */
export async function generateDpopKey(alg: JwsAlgorithm = "ES256"): Promise<DpopKey> {
  const pair = (await crypto.subtle.generateKey(algorithmParams(alg).generateParams, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const jwk = publicJwk(await crypto.subtle.exportKey("jwk", pair.publicKey));
  // Re-import the private key as non-extractable so it cannot leave the process through this object.
  const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const privateKey = await crypto.subtle.importKey(
    "jwk",
    privateJwk,
    algorithmParams(alg).importParams,
    false,
    ["sign"],
  );
  return { alg, privateKey, publicJwk: jwk, thumbprint: await jwkThumbprint(jwk) };
}

/** The request a DPoP proof is made for. */
export interface DpopProofInput {
  /** HTTP method, e.g. `POST`. */
  htm: string;
  /** The target URL; query and fragment are removed (RFC 9449 §4.2). */
  htu: string | URL;
  /** When presenting a token: adds `ath`, the hash of the access token. */
  accessToken?: string;
  /** A server-provided nonce (RFC 9449 §8, §9). */
  nonce?: string;
}

/**
 * Creates a fresh DPoP proof JWT (`typ: dpop+jwt`, unique `jti`, `iat` now) for one HTTP request.
 * A proof must never be reused; call this once per request, including retries.
 *
 * @see RFC 9449 §4.2
 */
export async function createDpopProof(key: DpopKey, input: DpopProofInput): Promise<string> {
  const url = new URL(input.htu);
  url.search = "";
  url.hash = "";
  const payload: Record<string, unknown> = {
    jti: randomToken(16),
    htm: input.htm.toUpperCase(),
    htu: url.href,
    iat: Math.floor(Date.now() / 1000),
  };
  if (input.accessToken !== undefined) payload.ath = base64UrlEncode(await sha256(input.accessToken));
  if (input.nonce !== undefined) payload.nonce = input.nonce;
  return signJwt({ typ: "dpop+jwt", alg: key.alg, jwk: key.publicJwk }, payload, key.privateKey);
}
