import type { Jwk, WebCryptoKey } from "../web-crypto-types.js";
import { base64Decode, base64UrlDecode, base64UrlEncode, fromUtf8, isRecord, utf8 } from "./encoding.js";

/** A JWS algorithm this package signs and verifies with WebCrypto. */
export type JwsAlgorithm =
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "ES256"
  | "ES384"
  | "ES512";

/** The JWS algorithms this package signs and verifies with WebCrypto. */
export const SUPPORTED_ALGORITHMS: readonly JwsAlgorithm[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
];

interface AlgorithmParams {
  importParams: RsaHashedImportParams | EcKeyImportParams;
  signParams: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
  generateParams: RsaHashedKeyGenParams | EcKeyGenParams;
}

/** The WebCrypto import and sign/verify parameters of a JWS algorithm. */
export function algorithmParams(alg: JwsAlgorithm): AlgorithmParams {
  const bits = alg.slice(2);
  const hash = `SHA-${bits}`;
  if (alg.startsWith("RS") || alg.startsWith("PS")) {
    const name = alg.startsWith("RS") ? "RSASSA-PKCS1-v1_5" : "RSA-PSS";
    return {
      importParams: { name, hash },
      signParams: alg.startsWith("RS") ? { name } : { name, saltLength: Number(bits) / 8 },
      generateParams: { name, hash, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    };
  }
  const namedCurve = bits === "512" ? "P-521" : `P-${bits}`;
  return {
    importParams: { name: "ECDSA", namedCurve },
    signParams: { name: "ECDSA", hash },
    generateParams: { name: "ECDSA", namedCurve },
  };
}

/** Whether a value names one of {@link SUPPORTED_ALGORITHMS}. */
export function isSupportedAlgorithm(alg: unknown): alg is JwsAlgorithm {
  return typeof alg === "string" && (SUPPORTED_ALGORITHMS as readonly string[]).includes(alg);
}

/** Signs a compact JWS over the JSON header and payload. */
export async function signJwt(
  header: Record<string, unknown> & { alg: JwsAlgorithm },
  payload: Record<string, unknown>,
  key: WebCryptoKey,
): Promise<string> {
  const input = `${base64UrlEncode(JSON.stringify(header))}.${base64UrlEncode(JSON.stringify(payload))}`;
  // WebCryptoKey is CryptoKey declared structurally (web-crypto-types.ts); WebCrypto made every one we hold.
  const signature = await crypto.subtle.sign(
    algorithmParams(header.alg).signParams,
    key as CryptoKey,
    utf8(input),
  );
  return `${input}.${base64UrlEncode(signature)}`;
}

/** A compact JWS split and decoded: header, payload, the signed input and the signature bytes. */
export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Uint8Array<ArrayBuffer>;
}

/** Splits and decodes a compact JWS; throws a SyntaxError when it is not one. */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split(".");
  if (parts.length !== 3) throw new SyntaxError("not a compact JWS");
  const [h, p, s] = parts as [string, string, string];
  const header: unknown = JSON.parse(fromUtf8(base64UrlDecode(h)));
  const payload: unknown = JSON.parse(fromUtf8(base64UrlDecode(p)));
  if (!isRecord(header) || !isRecord(payload))
    throw new SyntaxError("JWT header or payload is not an object");
  return { header, payload, signingInput: `${h}.${p}`, signature: base64UrlDecode(s) };
}

/** Whether a decoded JWS's signature verifies with `key` under `alg`. */
export async function verifySignature(
  decoded: DecodedJwt,
  alg: JwsAlgorithm,
  key: WebCryptoKey,
): Promise<boolean> {
  return crypto.subtle.verify(
    algorithmParams(alg).signParams,
    key as CryptoKey,
    decoded.signature,
    utf8(decoded.signingInput),
  );
}

/** Imports a public JWK as a WebCrypto verification key for `alg` (its alg/use/key_ops fields ignored). */
export async function importPublicJwk(jwk: Jwk, alg: JwsAlgorithm): Promise<WebCryptoKey> {
  const { importParams } = algorithmParams(alg);
  // `alg`/`use`/`key_ops` on a JWKS entry would make WebCrypto refuse a mismatching usage; keep the key material.
  const material: Jwk = {};
  if (jwk.kty !== undefined) material.kty = jwk.kty;
  for (const k of ["n", "e", "crv", "x", "y"] as const) if (jwk[k] !== undefined) material[k] = jwk[k];
  return crypto.subtle.importKey("jwk", material, importParams, false, ["verify"]);
}

/** Imports a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) private key for signing with `alg`. */
export async function importPkcs8Pem(pem: string, alg: JwsAlgorithm): Promise<WebCryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "");
  return crypto.subtle.importKey("pkcs8", base64Decode(body), algorithmParams(alg).importParams, false, [
    "sign",
  ]);
}

/** RFC 7638 SHA-256 thumbprint of a public JWK (EC or RSA). */
export async function jwkThumbprint(jwk: Jwk): Promise<string> {
  const members =
    jwk.kty === "EC"
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === "RSA"
        ? { e: jwk.e, kty: jwk.kty, n: jwk.n }
        : undefined;
  if (!members) throw new TypeError(`cannot compute a thumbprint for key type ${String(jwk.kty)}`);
  const digest = await crypto.subtle.digest("SHA-256", utf8(JSON.stringify(members)));
  return base64UrlEncode(digest);
}

/** The public members of a JWK (drops the private ones). */
export function publicJwk(jwk: Jwk): Jwk {
  if (jwk.kty === "EC") return { kty: "EC", crv: jwk.crv!, x: jwk.x!, y: jwk.y! };
  return { kty: "RSA", n: jwk.n!, e: jwk.e! };
}
