import { base64UrlEncode, randomToken, sha256 } from "./internal/encoding.js";

/** A PKCE pair: the secret verifier and its S256 challenge. */
export interface PkcePair {
  /** 43 characters of base64url from 32 random bytes (RFC 7636 §4.1). */
  verifier: string;
  /** BASE64URL(SHA256(verifier)). */
  challenge: string;
  method: "S256";
}

/**
 * Creates a fresh PKCE verifier and its S256 challenge with WebCrypto.
 *
 * @see RFC 7636 §4.1–4.2; MCP authorization requires S256.
 */
export async function createPkce(): Promise<PkcePair> {
  const verifier = randomToken(32);
  return { verifier, challenge: base64UrlEncode(await sha256(verifier)), method: "S256" };
}
