// The client provider against the resource-server helpers, with a small JWT-issuing authorization
// server, all over real HTTP on 127.0.0.1: login, audience binding, step-up, JWKS.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AuthInfo,
  createJwtVerifier,
  createOAuthProvider,
  createProtectedResource,
  type ProtectedResource,
  withAuth,
} from "../src/index.js";
import { signJwt } from "../src/internal/jose.js";
import { headlessRedirect } from "./support/loopback-auth-server.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function toRequest(req: IncomingMessage, base: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const init: RequestInit = { method: req.method ?? "GET", headers };
  if (req.method !== "GET" && req.method !== "HEAD") init.body = Buffer.concat(chunks);
  return new Request(new URL(req.url ?? "/", base), init);
}

async function write(res: ServerResponse, response: Response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

async function start() {
  const pair = (await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      hash: "SHA-256",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
    },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const jwk = { ...(await crypto.subtle.exportKey("jwk", pair.publicKey)), kid: "k1" };
  const codes = new Map<string, { challenge: string; scope: string; resource: string }>();
  const seen: AuthInfo[] = [];
  let audienceOverride: string | undefined;
  let base = "";
  let resource: ProtectedResource | undefined;

  const server = createServer(async (req, res) => {
    const request = await toRequest(req, base);
    const url = new URL(request.url);
    const json = (body: unknown, status = 200) =>
      write(
        res,
        new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
      );
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        jwks_uri: `${base}/jwks`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === "/jwks") return json({ keys: [jwk] });
    if (url.pathname === "/register")
      return json({ client_id: "e2e-client", token_endpoint_auth_method: "none" }, 201);
    if (url.pathname === "/authorize") {
      const code = `c${codes.size}`;
      codes.set(code, {
        challenge: url.searchParams.get("code_challenge") ?? "",
        scope: url.searchParams.get("scope") ?? "",
        resource: url.searchParams.get("resource") ?? "",
      });
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      back.searchParams.set("iss", base);
      return write(res, new Response(null, { status: 302, headers: { location: back.href } }));
    }
    if (url.pathname === "/token") {
      const form = new URLSearchParams(await request.text());
      const grant = codes.get(form.get("code") ?? "");
      const verifier = createHash("sha256")
        .update(form.get("code_verifier") ?? "")
        .digest("base64url");
      if (!grant || grant.challenge !== verifier || grant.resource !== form.get("resource")) {
        return json({ error: "invalid_grant" }, 400);
      }
      const now = Math.floor(Date.now() / 1000);
      const token = await signJwt(
        { alg: "RS256", kid: "k1", typ: "at+jwt" },
        {
          iss: base,
          sub: "alice",
          aud: audienceOverride ?? grant.resource,
          scope: grant.scope,
          client_id: "e2e-client",
          iat: now,
          exp: now + 300,
        },
        pair.privateKey,
      );
      return json({ access_token: token, token_type: "Bearer", expires_in: 300, scope: grant.scope });
    }
    const served = resource!.serveMetadata(request);
    if (served) return write(res, served);
    if (url.pathname === "/mcp") {
      const body = await request.clone().text();
      const auth = await resource!.authenticate(request, {
        requiredScopes: body.includes("write") ? ["read", "write"] : ["read"],
      });
      if (auth instanceof Response) return write(res, auth);
      seen.push(auth);
      return json({ ok: true });
    }
    return json({ error: "not_found" }, 404);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resource = createProtectedResource({
    resource: `${base}/mcp`,
    authorizationServers: [base],
    scopesSupported: ["read", "write"],
    verifier: createJwtVerifier({ issuer: base, jwksUri: `${base}/jwks` }),
  });
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return {
    base,
    seen,
    setAudience: (aud: string | undefined) => {
      audienceOverride = aud;
    },
  };
}

describe("provider ↔ protected resource", () => {
  it("logs in, presents an audience-bound JWT, and steps up for a write", async () => {
    const env = await start();
    const provider = createOAuthProvider({
      serverUrl: `${env.base}/mcp`,
      redirectUri: "http://127.0.0.1:9/cb",
      onRedirect: headlessRedirect,
    });
    const f = withAuth(provider);
    const read = await f(`${env.base}/mcp`, { method: "POST", body: '{"op":"read"}' });
    expect(read.status).toBe(200);
    // The 401 challenge named the scope this request needs, so that is all the first login asked for.
    expect(env.seen[0]).toMatchObject({
      subject: "alice",
      clientId: "e2e-client",
      scopes: ["read"],
      audience: [`${env.base}/mcp`],
    });
    expect(env.seen[0]).not.toHaveProperty("token");

    const write = await f(`${env.base}/mcp`, { method: "POST", body: '{"op":"write"}' });
    expect(write.status).toBe(200);
    expect(env.seen.at(-1)!.scopes).toEqual(["read", "write"]);
  });

  it("a token issued for another resource is refused with 401 invalid_token", async () => {
    const env = await start();
    env.setAudience("https://other.example.com/mcp");
    const provider = createOAuthProvider({
      serverUrl: `${env.base}/mcp`,
      redirectUri: "http://127.0.0.1:9/cb",
      onRedirect: headlessRedirect,
    });
    const response = await withAuth(provider, { maxRetries: 1 })(`${env.base}/mcp`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(env.seen).toHaveLength(0);
  });
});
