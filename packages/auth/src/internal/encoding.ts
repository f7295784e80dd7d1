const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/** The string of UTF-8 bytes. */
export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** base64url without padding (RFC 4648 §5) of bytes, or of a string's UTF-8 bytes. */
export function base64UrlEncode(input: Uint8Array | ArrayBuffer | string): string {
  const bytes =
    typeof input === "string" ? utf8(input) : input instanceof Uint8Array ? input : new Uint8Array(input);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of unpadded base64url text; throws a SyntaxError on any other character. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new SyntaxError("not base64url");
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(padded);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The bytes of standard base64 text (whitespace ignored). */
export function base64Decode(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/\s+/g, ""));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A random base64url token of `bytes` random bytes (32 by default), from the platform's CSPRNG. */
export function randomToken(bytes = 32): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The SHA-256 digest of a string's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(text)));
}

/** Whether a value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** application/x-www-form-urlencoded form of a value, as RFC 6749 §2.3.1 wants for Basic credentials. */
export function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}
