import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url, utf8 } from "./encoding.js";
import { RequestStateSealer } from "./request-state.js";

const call = ["tools/call", "ask", { q: 1 }] as const;
const payload = { answers: { a: 1 }, values: { step: 2 } };

function envelopeOf(token: string): Record<string, unknown> {
  const body = fromBase64Url(token.slice(0, token.indexOf(".")))!;
  return JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
}

async function idOf(key: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(key)));
  return toBase64Url(hash.subarray(0, 8));
}

describe("RequestStateSealer key ring", () => {
  it("a single key seals and opens, and names itself by a hash prefix, never the key", async () => {
    const sealer = new RequestStateSealer("k1-secret", 60_000);
    const token = await sealer.seal(...call, payload);
    expect(await sealer.open(token, ...call)).toEqual(payload);
    const envelope = envelopeOf(token);
    expect(envelope.k).toBe(await idOf("k1-secret"));
    expect(token).not.toContain(toBase64Url(utf8("k1-secret")));
  });

  it("rotates: a state sealed with [k1] opens with [k2, k1]; new states are sealed with k2", async () => {
    const before = new RequestStateSealer(["k1"], 60_000);
    const after = new RequestStateSealer(["k2", "k1"], 60_000);
    const old = await before.seal(...call, payload);
    expect(await after.open(old, ...call)).toEqual(payload);
    const fresh = await after.seal(...call, payload);
    expect(envelopeOf(fresh).k).toBe(await idOf("k2"));
    expect(await before.open(fresh, ...call)).toBeUndefined();
  });

  it("refuses a state of a key no longer in the ring, and a tampered one, alike", async () => {
    const old = await new RequestStateSealer(["k1"], 60_000).seal(...call, payload);
    const ring = new RequestStateSealer(["k2"], 60_000);
    expect(await ring.open(old, ...call)).toBeUndefined();
    const [body, mac] = old.split(".") as [string, string];
    const envelope = envelopeOf(old);
    envelope.a = { a: 2 };
    const tampered = `${toBase64Url(utf8(JSON.stringify(envelope)))}.${mac}`;
    const withK1 = new RequestStateSealer(["k2", "k1"], 60_000);
    expect(await withK1.open(tampered, ...call)).toBeUndefined();
    // Naming another key of the ring does not help a forger either.
    envelope.a = payload.answers;
    envelope.k = await idOf("k2");
    expect(
      await withK1.open(`${toBase64Url(utf8(JSON.stringify(envelope)))}.${mac}`, ...call),
    ).toBeUndefined();
    expect(await withK1.open(`${body}.${mac}`, ...call)).toEqual(payload);
  });

  it("opens a token without a key id (sealed before rings) with the current key only", async () => {
    const sealer = new RequestStateSealer(["k1", "k0"], 60_000);
    const legacy = async (key: string) => {
      const envelope = envelopeOf(await new RequestStateSealer(key, 60_000).seal(...call, payload));
      delete envelope.k;
      const body = toBase64Url(utf8(JSON.stringify(envelope)));
      const hmac = await crypto.subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
      ]);
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, utf8(body)));
      return `${body}.${toBase64Url(mac)}`;
    };
    expect(await sealer.open(await legacy("k1"), ...call)).toEqual(payload);
    expect(await sealer.open(await legacy("k0"), ...call)).toBeUndefined();
  });

  it("takes byte keys, and refuses an empty ring", async () => {
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const sealer = new RequestStateSealer([bytes], 60_000);
    expect(await sealer.open(await sealer.seal(...call, payload), ...call)).toEqual(payload);
    expect(() => new RequestStateSealer([], 60_000)).toThrow(RangeError);
  });
});
