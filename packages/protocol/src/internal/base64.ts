// Runtime-neutral base64 (RFC 4648, standard alphabet). Uses Buffer when the runtime has it, for speed;
// Buffer's decoder silently skips bad characters, so input is validated first either way.

interface NodeBufferish {
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly byteLength: number;
  toString(encoding: "base64"): string;
}
interface BufferLike {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): NodeBufferish;
  from(text: string, encoding: "base64"): NodeBufferish;
}

const nodeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALID = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 (with padding) of the bytes: Node's Buffer where there is one, a plain loop elsewhere. */
export function encodeBase64(bytes: Uint8Array): string {
  if (nodeBuffer !== undefined) {
    return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  }
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** Decodes base64 (padding optional); `undefined` when the text is not valid base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!VALID.test(text)) return undefined;
  const body = text.replace(/=+$/, "");
  const padded = text.length % 4 === 0 ? text : undefined;
  if (body.length % 4 === 1) return undefined;
  if (padded === undefined && text.length !== body.length) return undefined; // padding but wrong length
  if (nodeBuffer !== undefined) {
    const b = nodeBuffer.from(body, "base64");
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let j = 0;
  for (let i = 0; i < body.length; i++) {
    acc = (acc << 6) | ALPHABET.indexOf(body[i]!);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
