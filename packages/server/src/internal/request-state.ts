import { canonicalJson, decodeUtf8, fromBase64Url, toBase64Url, utf8 } from "./encoding.js";

/** What a `requestState` token carries between MRTR rounds. */
export interface RequestStatePayload {
  /** Answers collected in earlier rounds, by input key. */
  answers: Record<string, unknown>;
  /** Values the handler stored with `ctx.state.set`. */
  values: Record<string, unknown>;
}

interface Envelope {
  v: 1;
  /** method */
  m: string;
  /** tool / prompt name or resource URI */
  n: string;
  /** SHA-256 (base64url) of the canonical JSON of the arguments */
  d: string;
  /** expiry, ms since the epoch */
  e: number;
  a: Record<string, unknown>;
  s: Record<string, unknown>;
}

/**
 * Seals and opens `requestState` tokens: `base64url(JSON) "." base64url(HMAC-SHA256)`. A token is bound to
 * the method, the target (tool name, prompt name or URI), a digest of the arguments and an expiry, so it
 * cannot be replayed on another call. WebCrypto only: runs on any runtime.
 */
export class RequestStateSealer {
  private key: Promise<CryptoKey> | undefined;

  constructor(
    private readonly secret: string | Uint8Array | undefined,
    private readonly ttlMs: number,
  ) {}

  private hmacKey(): Promise<CryptoKey> {
    if (this.key) return this.key;
    let raw: Uint8Array<ArrayBuffer>;
    if (this.secret === undefined) {
      raw = new Uint8Array(32);
      crypto.getRandomValues(raw);
    } else if (typeof this.secret === "string") {
      raw = utf8(this.secret);
    } else {
      raw = new Uint8Array(this.secret);
    }
    this.key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    return this.key;
  }

  private async digest(args: unknown): Promise<string> {
    const hash = await crypto.subtle.digest("SHA-256", utf8(canonicalJson(args ?? {})));
    return toBase64Url(new Uint8Array(hash));
  }

  /** Seals `payload` for a later retry of the same call. */
  async seal(method: string, target: string, args: unknown, payload: RequestStatePayload): Promise<string> {
    const envelope: Envelope = {
      v: 1,
      m: method,
      n: target,
      d: await this.digest(args),
      e: Date.now() + this.ttlMs,
      a: payload.answers,
      s: payload.values,
    };
    const body = toBase64Url(utf8(JSON.stringify(envelope)));
    const mac = await crypto.subtle.sign("HMAC", await this.hmacKey(), utf8(body));
    return `${body}.${toBase64Url(new Uint8Array(mac))}`;
  }

  /**
   * Opens a token; `undefined` when it is malformed, forged, tampered with, expired, or was issued for
   * another method, target or arguments. The reason is never told to the client.
   */
  async open(
    token: unknown,
    method: string,
    target: string,
    args: unknown,
  ): Promise<RequestStatePayload | undefined> {
    if (typeof token !== "string" || token.length > 4_000_000) return undefined;
    const dot = token.indexOf(".");
    if (dot <= 0 || dot !== token.lastIndexOf(".")) return undefined;
    const body = token.slice(0, dot);
    const mac = fromBase64Url(token.slice(dot + 1));
    if (mac === undefined) return undefined;
    const valid = await crypto.subtle.verify("HMAC", await this.hmacKey(), new Uint8Array(mac), utf8(body));
    if (!valid) return undefined;
    const bytes = fromBase64Url(body);
    const text = bytes && decodeUtf8(bytes);
    if (text === undefined) return undefined;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return undefined;
    }
    if (envelope.v !== 1 || envelope.m !== method || envelope.n !== target) return undefined;
    if (typeof envelope.e !== "number" || envelope.e < Date.now()) return undefined;
    if (envelope.d !== (await this.digest(args))) return undefined;
    return { answers: envelope.a ?? {}, values: envelope.s ?? {} };
  }
}
