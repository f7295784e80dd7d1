import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  createClientAssertion,
  createDpopProof,
  createPkce,
  formatChallenge,
  generateDpopKey,
  isResourceAllowed,
  parseWwwAuthenticate,
  protectedResourceMetadataUrls,
  readResourceChallenge,
} from "../src/index.js";
import { jwkThumbprint } from "../src/internal/jose.js";
import { verifyJwtWithJwk } from "./support/loopback-auth-server.js";

describe("WWW-Authenticate", () => {
  it("parses several challenges with quoted and token values", () => {
    const header =
      'Bearer realm="mcp", error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", DPoP algs="ES256", Basic realm=simple';
    expect(parseWwwAuthenticate(header)).toEqual([
      {
        scheme: "Bearer",
        params: {
          realm: "mcp",
          error: "insufficient_scope",
          scope: "a b",
          resource_metadata: "https://x/.well-known/oauth-protected-resource/mcp",
        },
      },
      { scheme: "DPoP", params: { algs: "ES256" } },
      { scheme: "Basic", params: { realm: "simple" } },
    ]);
  });

  it("unescapes quoted-pairs, lower-cases param names, and reads token68", () => {
    expect(parseWwwAuthenticate('Bearer Error_Description="say \\"hi\\"", x=1')).toEqual([
      { scheme: "Bearer", params: { error_description: 'say "hi"', x: "1" } },
    ]);
    expect(parseWwwAuthenticate("Negotiate abc123==, Bearer")).toEqual([
      { scheme: "Negotiate", params: {}, token68: "abc123==" },
      { scheme: "Bearer", params: {} },
    ]);
    expect(parseWwwAuthenticate("")).toEqual([]);
    expect(parseWwwAuthenticate(null)).toEqual([]);
  });

  it("picks the MCP values from a Bearer or DPoP challenge, ignoring others", () => {
    expect(
      readResourceChallenge('Basic realm="x", DPoP error="use_dpop_nonce", resource_metadata="https://m"'),
    ).toEqual({
      scheme: "DPoP",
      resourceMetadata: "https://m",
      scope: undefined,
      error: "use_dpop_nonce",
      errorDescription: undefined,
    });
    expect(readResourceChallenge(undefined).resourceMetadata).toBeUndefined();
  });

  it("formats a challenge that parses back to itself", () => {
    const text = formatChallenge("Bearer", {
      error: "invalid_token",
      error_description: 'a "b"',
      scope: undefined,
    });
    expect(text).toBe('Bearer error="invalid_token", error_description="a \\"b\\""');
    expect(parseWwwAuthenticate(text)[0]!.params).toEqual({
      error: "invalid_token",
      error_description: 'a "b"',
    });
    expect(formatChallenge("Bearer", {})).toBe("Bearer");
  });
});

describe("well-known URLs and resources", () => {
  it("protected resource metadata: path-aware then root", () => {
    expect(protectedResourceMetadataUrls("https://h:8443/a/mcp/")).toEqual([
      "https://h:8443/.well-known/oauth-protected-resource/a/mcp",
      "https://h:8443/.well-known/oauth-protected-resource",
    ]);
    expect(protectedResourceMetadataUrls("https://h/")).toEqual([
      "https://h/.well-known/oauth-protected-resource",
    ]);
  });

  it("authorization server metadata: the spec's order with and without a path", () => {
    expect(authorizationServerMetadataUrls("https://a")).toEqual([
      "https://a/.well-known/oauth-authorization-server",
      "https://a/.well-known/openid-configuration",
    ]);
    expect(authorizationServerMetadataUrls("https://a/t1/")).toEqual([
      "https://a/.well-known/oauth-authorization-server/t1",
      "https://a/.well-known/openid-configuration/t1",
      "https://a/t1/.well-known/openid-configuration",
    ]);
  });

  it("a resource matches its own URL and path-segment prefixes on the same origin only", () => {
    expect(isResourceAllowed("https://h/mcp", "https://h/mcp")).toBe(true);
    expect(isResourceAllowed("https://h/mcp", "https://h/")).toBe(true);
    expect(isResourceAllowed("https://h/a/mcp", "https://h/a")).toBe(true);
    expect(isResourceAllowed("https://h/mcp", "https://h/mc")).toBe(false);
    expect(isResourceAllowed("https://h/mcp", "https://h/mcp/deeper")).toBe(false);
    expect(isResourceAllowed("https://h/mcp", "http://h/mcp")).toBe(false);
    expect(isResourceAllowed("https://h/mcp", "https://evil/mcp")).toBe(false);
    expect(isResourceAllowed("https://h/mcp", "https://h/mcp#frag")).toBe(false);
    expect(isResourceAllowed("https://h/mcp", "not a url")).toBe(false);
  });

  it("canonical resource URI drops fragment, query and trailing slash, lower-cases the host", () => {
    expect(canonicalResourceUri("HTTPS://Mcp.Example.com/mcp/?x=1#f")).toBe("https://mcp.example.com/mcp");
    expect(canonicalResourceUri("https://mcp.example.com/")).toBe("https://mcp.example.com");
  });
});

describe("PKCE", () => {
  it("makes a 43-character verifier and its S256 challenge, fresh each time", async () => {
    const a = await createPkce();
    const b = await createPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).toBe(createHash("sha256").update(a.verifier).digest("base64url"));
    expect(a.method).toBe("S256");
    expect(a.verifier).not.toBe(b.verifier);
  });
});

describe("DPoP proofs and client assertions", () => {
  it("signs a verifiable proof with htm, htu without query, ath and nonce, and a unique jti", async () => {
    const key = await generateDpopKey();
    expect(key.publicJwk).not.toHaveProperty("d");
    expect(key.thumbprint).toBe(await jwkThumbprint(key.publicJwk));
    const proof = await createDpopProof(key, {
      htm: "post",
      htu: "https://h/mcp?x=1#y",
      accessToken: "tok",
      nonce: "n",
    });
    const [h] = proof.split(".");
    expect(JSON.parse(Buffer.from(h!, "base64url").toString())).toEqual({
      typ: "dpop+jwt",
      alg: "ES256",
      jwk: key.publicJwk,
    });
    const claims = verifyJwtWithJwk(proof, key.publicJwk)!;
    expect(claims).toMatchObject({ htm: "POST", htu: "https://h/mcp", nonce: "n" });
    expect(claims.ath).toBe(createHash("sha256").update("tok").digest("base64url"));
    const again = verifyJwtWithJwk(
      await createDpopProof(key, { htm: "POST", htu: "https://h/mcp" }),
      key.publicJwk,
    )!;
    expect(again.jti).not.toBe(claims.jti);
    expect(again).not.toHaveProperty("ath");
  });

  it("computes the RFC 7638 thumbprint of the RFC's example key", async () => {
    const jwk = {
      kty: "RSA",
      n: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
      e: "AQAB",
    };
    expect(await jwkThumbprint(jwk)).toBe("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
  });

  it("signs a private_key_jwt assertion from a PKCS#8 PEM", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const der = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64");
    const pem = `-----BEGIN PRIVATE KEY-----\n${der}\n-----END PRIVATE KEY-----`;
    const jwt = await createClientAssertion({
      clientId: "c",
      audience: "https://as",
      privateKey: pem,
      keyId: "k",
    });
    const claims = verifyJwtWithJwk(jwt, await crypto.subtle.exportKey("jwk", pair.publicKey))!;
    expect(claims).toMatchObject({ iss: "c", sub: "c", aud: "https://as" });
    expect((claims.exp as number) - (claims.iat as number)).toBe(300);
  });
});
