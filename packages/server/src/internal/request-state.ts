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
  /** id of the key that sealed it (see {@link keyId}); absent in tokens sealed before key rings */
  k?: string;
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

/** A secret as `requestStateKey` gives it: text (its UTF-8 bytes are the key) or raw bytes. */
export type RequestStateSecret = string | Uint8Array;

interface RingKey {
  id: string;
  key: CryptoKey;
}

interface Ring {
  current: RingKey;
  byId: Map<string, RingKey>;
}

/**
 * The public id of a key: the first 8 bytes of SHA-256 of its raw bytes, base64url. It names the key in
 * a token without revealing it (a hash prefix cannot be turned back into the key).
 */
async function keyId(raw: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  return toBase64Url(hash.subarray(0, 8));
}

/**
 * Seals and opens `requestState` tokens: `base64url(JSON) "." base64url(HMAC-SHA256)`. A token is bound to
 * the method, the target (tool name, prompt name or URI), a digest of the arguments and of the caller's
 * principal (the authenticated subject, see `ownerOf`), and an expiry, so it cannot be replayed on
 * another call nor by another user. The principal enters only the digest: the token, readable by the
 * client, does not spell it out. WebCrypto only: runs on any runtime.
 *
 * Keys form a ring: the first seals, every one opens. The sealing key's id ({@link keyId}) travels inside
 * the signed JSON, so a token is checked against that one key only; a token naming a key that is not in
 * the ring is refused exactly like a tampered one. Rotating is: put the new key first, keep the old one
 * after it for as long as a round may last (`requestStateTtlMs`), then drop it.
 */
export class RequestStateSealer {
  private ring: Promise<Ring> | undefined;
  private readonly secrets: readonly RequestStateSecret[] | undefined;

  /** @throws RangeError when `secret` is an empty ring. */
  constructor(
    secret: RequestStateSecret | readonly RequestStateSecret[] | undefined,
    private readonly ttlMs: number,
  ) {
    if (secret === undefined) this.secrets = undefined;
    else if (typeof secret === "string" || secret instanceof Uint8Array) this.secrets = [secret];
    else if (secret.length === 0) throw new RangeError("requestStateKey must hold at least one key");
    else this.secrets = [...secret];
  }

  private keys(): Promise<Ring> {
    this.ring ??= this.importRing();
    return this.ring;
  }

  private async importRing(): Promise<Ring> {
    const raws: Array<Uint8Array<ArrayBuffer>> = [];
    if (this.secrets === undefined) {
      const raw = new Uint8Array(32);
      crypto.getRandomValues(raw);
      raws.push(raw);
    } else {
      for (const secret of this.secrets) {
        raws.push(typeof secret === "string" ? utf8(secret) : new Uint8Array(secret));
      }
    }
    const keys = await Promise.all(
      raws.map(async (raw) => ({
        id: await keyId(raw),
        key: await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
          "sign",
          "verify",
        ]),
      })),
    );
    const byId = new Map<string, RingKey>();
    // A key listed twice keeps its first place.
    for (const key of keys) if (!byId.has(key.id)) byId.set(key.id, key);
    return { current: keys[0]!, byId };
  }

  private async digest(args: unknown, principal: string | undefined): Promise<string> {
    // Canonical JSON never holds a raw newline, so "\n" cannot be forged from inside the arguments; an
    // anonymous call digests exactly what tokens digested before principals were bound.
    const text = canonicalJson(args ?? {});
    const bound = principal === undefined ? text : `${text}\n${principal}`;
    const hash = await crypto.subtle.digest("SHA-256", utf8(bound));
    return toBase64Url(new Uint8Array(hash));
  }

  /**
   * Seals `payload` for a later retry of the same call by the same principal (`undefined`: a caller the
   * transport did not authenticate).
   */
  async seal(
    method: string,
    target: string,
    args: unknown,
    payload: RequestStatePayload,
    principal?: string,
  ): Promise<string> {
    const { current } = await this.keys();
    const envelope: Envelope = {
      v: 1,
      k: current.id,
      m: method,
      n: target,
      d: await this.digest(args, principal),
      e: Date.now() + this.ttlMs,
      a: payload.answers,
      s: payload.values,
    };
    const body = toBase64Url(utf8(JSON.stringify(envelope)));
    const mac = await crypto.subtle.sign("HMAC", current.key, utf8(body));
    return `${body}.${toBase64Url(new Uint8Array(mac))}`;
  }

  /**
   * Opens a token; `undefined` when it is malformed, forged, tampered with, expired, sealed by a key not
   * in the ring, or was issued for another method, target, arguments or principal. The reason is never
   * told to the client.
   */
  async open(
    token: unknown,
    method: string,
    target: string,
    args: unknown,
    principal?: string,
  ): Promise<RequestStatePayload | undefined> {
    if (typeof token !== "string" || token.length > 4_000_000) return undefined;
    const dot = token.indexOf(".");
    if (dot <= 0 || dot !== token.lastIndexOf(".")) return undefined;
    const body = token.slice(0, dot);
    const mac = fromBase64Url(token.slice(dot + 1));
    if (mac === undefined) return undefined;
    const bytes = fromBase64Url(body);
    const text = bytes && decodeUtf8(bytes);
    if (text === undefined) return undefined;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return undefined;
    }
    if (typeof envelope !== "object" || envelope === null) return undefined;
    // The key id is read before the MAC is checked only to pick the key; a forged id selects a key whose
    // MAC the forger cannot make. A token without one predates key rings: the current key seals those.
    const ring = await this.keys();
    const signer = envelope.k === undefined ? ring.current : ring.byId.get(envelope.k);
    if (signer === undefined) return undefined;
    const valid = await crypto.subtle.verify("HMAC", signer.key, new Uint8Array(mac), utf8(body));
    if (!valid) return undefined;
    if (envelope.v !== 1 || envelope.m !== method || envelope.n !== target) return undefined;
    if (typeof envelope.e !== "number" || envelope.e < Date.now()) return undefined;
    if (envelope.d !== (await this.digest(args, principal))) return undefined;
    return { answers: envelope.a ?? {}, values: envelope.s ?? {} };
  }
}
