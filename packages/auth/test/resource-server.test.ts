import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AuthInfo,
  authInfoOf,
  createIntrospectionVerifier,
  createJwtVerifier,
  createProtectedResource,
  InvalidTokenError,
  parseWwwAuthenticate,
  type TokenVerifier,
} from "../src/index.js";
import { base64UrlEncode } from "../src/internal/encoding.js";
import { type JwsAlgorithm, signJwt } from "../src/internal/jose.js";

const RESOURCE = "https://mcp.example.com/mcp";
const ISSUER = "https://as.example.com";
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function signer(alg: JwsAlgorithm, kid: string) {
  const params =
    alg === "RS256"
      ? {
          name: "RSASSA-PKCS1-v1_5",
          hash: "SHA-256",
          modulusLength: 2048,
          publicExponent: new Uint8Array([1, 0, 1]),
        }
      : { name: "ECDSA", namedCurve: "P-256" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = { ...(await crypto.subtle.exportKey("jwk", pair.publicKey)), kid, use: "sig", alg };
  const now = Math.floor(Date.now() / 1000);
  return {
    jwk,
    sign: (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
      signJwt(
        { alg, kid, typ: "at+jwt", ...header },
        {
          iss: ISSUER,
          aud: RESOURCE,
          sub: "user-1",
          exp: now + 600,
          scope: "read write",
          client_id: "c1",
          ...claims,
        },
        pair.privateKey,
      ),
  };
}

/** A loopback HTTP server answering one path with a JSON body; counts hits. */
async function jsonServer(handler: (body: string) => unknown) {
  let hits = 0;
  const server = createServer(async (req, res) => {
    hits++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(handler(Buffer.concat(chunks).toString())));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, hits: () => hits };
}

const staticVerifier = (info: Partial<AuthInfo>): TokenVerifier => ({
  async verify(token) {
    if (token !== "good") throw new InvalidTokenError("unknown token");
    return { scopes: [], audience: [RESOURCE], claims: {}, ...info };
  },
});

function req(authorization?: string, path = "/mcp") {
  return new Request(`https://mcp.example.com${path}`, {
    method: "POST",
    headers: authorization ? { authorization } : {},
    body: "{}",
  });
}

function challengeOf(response: Response) {
  const [c] = parseWwwAuthenticate(response.headers.get("www-authenticate"));
  return c!;
}

describe("createProtectedResource", () => {
  const pr = createProtectedResource({
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    scopesSupported: ["read", "write"],
    requiredScopes: ["read"],
    verifier: staticVerifier({ scopes: ["read"], subject: "u" }),
  });

  it("serves RFC 9728 metadata at the path-aware well-known URL", async () => {
    expect(pr.metadataUrl).toBe("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
    const res = pr.serveMetadata(new Request(pr.metadataUrl))!;
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ["header"],
      scopes_supported: ["read", "write"],
    });
    expect(pr.serveMetadata(req())).toBeUndefined();
    expect(pr.serveMetadata(new Request(pr.metadataUrl, { method: "OPTIONS" }))!.status).toBe(204);
  });

  it("answers a request without a token with 401, resource_metadata and scope, and no error code", async () => {
    const res = (await pr.authenticate(req())) as Response;
    expect(res.status).toBe(401);
    const c = challengeOf(res);
    expect(c.scheme).toBe("Bearer");
    expect(c.params).toEqual({ scope: "read", resource_metadata: pr.metadataUrl });
  });

  it("answers an invalid token with 401 invalid_token", async () => {
    const res = (await pr.authenticate(req("Bearer nope"))) as Response;
    expect(res.status).toBe(401);
    expect(challengeOf(res).params.error).toBe("invalid_token");
    expect(await res.json()).toMatchObject({ error: "invalid_token" });
  });

  it("answers a malformed Authorization header with 400 invalid_request", async () => {
    const res = (await pr.authenticate(req("Bearer a b"))) as Response;
    expect(res.status).toBe(400);
    expect(challengeOf(res).params.error).toBe("invalid_request");
  });

  it("answers another scheme with a plain Bearer challenge", async () => {
    const res = (await pr.authenticate(req("Basic Zm9vOmJhcg=="))) as Response;
    expect(res.status).toBe(401);
    expect(challengeOf(res).params.error).toBeUndefined();
  });

  it("answers missing scopes with 403 insufficient_scope naming all needed scopes", async () => {
    const res = (await pr.authenticate(req("Bearer good"), {
      requiredScopes: ["read", "admin"],
    })) as Response;
    expect(res.status).toBe(403);
    const c = challengeOf(res);
    expect(c.params.error).toBe("insufficient_scope");
    expect(c.params.scope!.split(" ").sort()).toEqual(["admin", "read"]);
    expect(c.params.resource_metadata).toBe(pr.metadataUrl);
  });

  it("refuses a token whose verified audience is another resource, whatever the verifier", async () => {
    const lax = createProtectedResource({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      verifier: staticVerifier({ audience: ["https://other.example.com/mcp"] }),
    });
    const res = (await lax.authenticate(req("Bearer good"))) as Response;
    expect(res.status).toBe(401);
    expect(challengeOf(res).params.error).toBe("invalid_token");
  });

  it("answers a verifier outage with 500, not a challenge", async () => {
    const errors: unknown[] = [];
    const broken = createProtectedResource({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      verifier: { verify: async () => Promise.reject(new Error("JWKS down")) },
      onError: (e) => errors.push(e),
    });
    const res = (await broken.authenticate(req("Bearer good"))) as Response;
    expect(res.status).toBe(500);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(errors).toHaveLength(1);
  });

  it("wrap() serves metadata, refuses, or calls the handler with the verified AuthInfo", async () => {
    const seen: AuthInfo[] = [];
    const handler = pr.wrap((request, { authInfo }) => {
      seen.push(authInfo);
      expect(authInfoOf(request)).toBe(authInfo);
      return new Response("ok");
    });
    expect((await handler(new Request(pr.metadataUrl))).status).toBe(200);
    expect((await handler(req())).status).toBe(401);
    const ok = await handler(req("Bearer good"));
    expect(await ok.text()).toBe("ok");
    expect(seen).toEqual([{ scopes: ["read"], audience: [RESOURCE], claims: {}, subject: "u" }]);
    expect(Object.keys(seen[0]!)).not.toContain("token");
  });

  it("supports scope hierarchies through scopeSatisfies", async () => {
    const hier = createProtectedResource({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      requiredScopes: ["files:read"],
      verifier: staticVerifier({ scopes: ["files"] }),
      scopeSatisfies: (have, want) => have === want || want.startsWith(`${have}:`),
    });
    expect(await hier.authenticate(req("Bearer good"))).not.toBeInstanceOf(Response);
  });

  it("refuses to be created without an authorization server", () => {
    expect(() =>
      createProtectedResource({ resource: RESOURCE, authorizationServers: [], verifier: staticVerifier({}) }),
    ).toThrow(TypeError);
  });
});

describe("createJwtVerifier", () => {
  it("verifies RS256 and ES256 tokens against a fixed JWK Set", async () => {
    const rs = await signer("RS256", "r1");
    const es = await signer("ES256", "e1");
    const verifier = createJwtVerifier({ issuer: ISSUER, jwks: { keys: [rs.jwk, es.jwk] } });
    for (const s of [rs, es]) {
      const info = await verifier.verify(await s.sign(), { resource: RESOURCE });
      expect(info).toMatchObject({
        subject: "user-1",
        clientId: "c1",
        scopes: ["read", "write"],
        audience: [RESOURCE],
        issuer: ISSUER,
      });
    }
  });

  it("fetches the JWK Set over HTTP and refetches once for an unknown kid", async () => {
    const first = await signer("ES256", "k1");
    const rotated = await signer("ES256", "k2");
    let keys = [first.jwk];
    const jwks = await jsonServer(() => ({ keys }));
    const verifier = createJwtVerifier({ issuer: ISSUER, jwksUri: jwks.url });
    await verifier.verify(await first.sign(), { resource: RESOURCE });
    keys = [first.jwk, rotated.jwk];
    await verifier.verify(await rotated.sign(), { resource: RESOURCE });
    expect(jwks.hits()).toBe(2);
    // Unknown kids do not hammer the JWKS endpoint: at most one refetch per 30 s.
    const stranger = await signer("ES256", "k3");
    await expect(verifier.verify(await stranger.sign(), { resource: RESOURCE })).rejects.toBeInstanceOf(
      InvalidTokenError,
    );
    expect(jwks.hits()).toBe(2);
  });

  const cases: [string, (s: Awaited<ReturnType<typeof signer>>) => Promise<string>][] = [
    ["another audience", (s) => s.sign({ aud: "https://other.example.com/mcp" })],
    ["no audience", (s) => s.sign({ aud: undefined })],
    ["another issuer", (s) => s.sign({ iss: "https://evil.example.com" })],
    ["an expired token", (s) => s.sign({ exp: Math.floor(Date.now() / 1000) - 120 })],
    ["no exp", (s) => s.sign({ exp: undefined })],
    ["a token not yet valid", (s) => s.sign({ nbf: Math.floor(Date.now() / 1000) + 600 })],
    [
      "a tampered payload",
      async (s) => {
        const [h, , sig] = (await s.sign()).split(".");
        return `${h}.${base64UrlEncode(JSON.stringify({ iss: ISSUER, aud: RESOURCE, exp: 9e9, scope: "admin" }))}.${sig}`;
      },
    ],
    [
      "alg none",
      async () =>
        `${base64UrlEncode('{"alg":"none"}')}.${base64UrlEncode(JSON.stringify({ iss: ISSUER, aud: RESOURCE, exp: 9e9 }))}.`,
    ],
    [
      "HS256",
      async () =>
        `${base64UrlEncode('{"alg":"HS256","kid":"r1"}')}.${base64UrlEncode(JSON.stringify({ iss: ISSUER, aud: RESOURCE, exp: 9e9 }))}.c2ln`,
    ],
    ["garbage", async () => "not-a-jwt"],
  ];
  for (const [name, make] of cases) {
    it(`refuses ${name} with InvalidTokenError`, async () => {
      const s = await signer("ES256", "r1");
      const verifier = createJwtVerifier({ issuer: ISSUER, jwks: { keys: [s.jwk] } });
      await expect(verifier.verify(await make(s), { resource: RESOURCE })).rejects.toBeInstanceOf(
        InvalidTokenError,
      );
    });
  }

  it("refuses a key of the wrong algorithm family (an RS256 token against EC keys only)", async () => {
    const rs = await signer("RS256", "x");
    const es = await signer("ES256", "x");
    const verifier = createJwtVerifier({ issuer: ISSUER, jwks: { keys: [es.jwk] } });
    await expect(verifier.verify(await rs.sign(), { resource: RESOURCE })).rejects.toBeInstanceOf(
      InvalidTokenError,
    );
  });

  it("needs a key source", () => {
    expect(() => createJwtVerifier({ issuer: ISSUER })).toThrow(TypeError);
  });
});

describe("createIntrospectionVerifier", () => {
  it("accepts an active token for this resource and authenticates with client_secret_basic", async () => {
    let seen = "";
    const as = await jsonServer((body) => {
      seen = body;
      return {
        active: true,
        aud: [RESOURCE],
        scope: "read",
        sub: "s",
        client_id: "c",
        iss: ISSUER,
        exp: 9e9,
      };
    });
    const verifier = createIntrospectionVerifier({
      endpoint: as.url,
      clientId: "rs",
      clientSecret: "pw",
      issuer: ISSUER,
    });
    const info = await verifier.verify("tok", { resource: RESOURCE });
    expect(info).toMatchObject({ subject: "s", clientId: "c", scopes: ["read"] });
    expect(new URLSearchParams(seen).get("token")).toBe("tok");
  });

  for (const [name, answer] of [
    ["inactive", { active: false }],
    ["for another audience", { active: true, aud: "https://other.example.com/mcp" }],
    ["without an audience", { active: true }],
    ["expired", { active: true, aud: RESOURCE, exp: 1 }],
    ["from another issuer", { active: true, aud: RESOURCE, iss: "https://evil.example.com" }],
  ] as const) {
    it(`refuses a token that is ${name}`, async () => {
      const as = await jsonServer(() => answer);
      const verifier = createIntrospectionVerifier({ endpoint: as.url, issuer: ISSUER });
      await expect(verifier.verify("tok", { resource: RESOURCE })).rejects.toBeInstanceOf(InvalidTokenError);
    });
  }
});
