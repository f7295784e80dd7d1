import { afterEach, describe, expect, it } from "vitest";
import {
  AuthError,
  createInMemoryTokenStore,
  createOAuthProvider,
  generateDpopKey,
  type OAuthProviderOptions,
  withAuth,
} from "../src/index.js";
import {
  type AuthServerConfig,
  headlessRedirect,
  type LoopbackAuthServer,
  startLoopbackAuthServer,
  verifyJwtWithJwk,
} from "./support/loopback-auth-server.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const servers: LoopbackAuthServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(
  config: AuthServerConfig,
  extra: Partial<OAuthProviderOptions> | ((server: LoopbackAuthServer) => Partial<OAuthProviderOptions>) = {},
) {
  const server = await startLoopbackAuthServer(config);
  servers.push(server);
  const provider = createOAuthProvider({
    serverUrl: server.mcpUrl,
    redirectUri: REDIRECT,
    onRedirect: headlessRedirect,
    ...(typeof extra === "function" ? extra(server) : extra),
  });
  const fetchWithAuth = withAuth(provider);
  const call = () => fetchWithAuth(server.mcpUrl, { method: "POST", body: "{}" });
  return { server, provider, call };
}

const only = (server: LoopbackAuthServer, path: string) => server.requests.filter((r) => r.path === path);

describe("client registration order", () => {
  it("uses pre-registered credentials even when CIMD and DCR are available", async () => {
    const { server, call } = await setup(
      { metadata: { client_id_metadata_document_supported: true } },
      (s) => ({
        client: { issuer: s.issuer, clientId: "pre", clientSecret: "s3cret" },
        clientMetadataUrl: "https://app.example/cimd.json",
      }),
    );
    expect((await call()).status).toBe(200);
    expect(only(server, "/register")).toHaveLength(0);
    expect(only(server, "/authorize")[0]!.query.get("client_id")).toBe("pre");
  });

  it("uses the Client ID Metadata Document URL when the server supports it, without registering", async () => {
    const { server, call } = await setup(
      { metadata: { client_id_metadata_document_supported: true } },
      { clientMetadataUrl: "https://app.example/cimd.json" },
    );
    expect((await call()).status).toBe(200);
    expect(only(server, "/register")).toHaveLength(0);
    expect(only(server, "/authorize")[0]!.query.get("client_id")).toBe("https://app.example/cimd.json");
    expect(only(server, "/token")[0]!.form.get("client_id")).toBe("https://app.example/cimd.json");
  });

  it("falls back to dynamic registration with application_type and the refresh_token grant", async () => {
    const { server, call } = await setup({}, { clientMetadataUrl: "https://app.example/cimd.json" });
    expect((await call()).status).toBe(200);
    const [register] = only(server, "/register");
    const body = JSON.parse(register!.body) as Record<string, unknown>;
    expect(body.application_type).toBe("native");
    expect(body.redirect_uris).toEqual([REDIRECT]);
    expect(body.grant_types).toEqual(["authorization_code", "refresh_token"]);
    expect(body.token_endpoint_auth_method).toBe("none");
  });

  it("registers a remote https redirect as a web application", async () => {
    const { server, call } = await setup({}, { redirectUri: "https://app.example/callback" });
    expect((await call()).status).toBe(200);
    expect(JSON.parse(only(server, "/register")[0]!.body).application_type).toBe("web");
  });

  it("refuses when there is no way to get a client id", async () => {
    const { server, call } = await setup({ metadata: { registration_endpoint: undefined } });
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe("registration_unavailable");
    expect(only(server, "/authorize")).toHaveLength(0);
  });

  it("reports a refused registration", async () => {
    const { call } = await setup({ register: () => ({ error: "invalid_client_metadata" }) });
    const error = (await call().catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe("registration_failed");
  });
});

describe("token endpoint client authentication", () => {
  const registered = (method: string, secret?: string) => () => ({
    client_id: "id:with space",
    ...(secret ? { client_secret: secret } : {}),
    token_endpoint_auth_method: method,
  });

  it("client_secret_basic: form-encoded id and secret in an HTTP Basic header", async () => {
    const { server, call } = await setup({
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_basic"] },
      register: registered("client_secret_basic", "p@ss word"),
    });
    expect((await call()).status).toBe(200);
    expect(JSON.parse(only(server, "/register")[0]!.body).token_endpoint_auth_method).toBe(
      "client_secret_basic",
    );
    const token = only(server, "/token")[0]!;
    const header = token.headers.authorization as string;
    expect(Buffer.from(header.slice(6), "base64").toString()).toBe("id%3Awith+space:p%40ss+word");
    expect(token.form.get("client_secret")).toBeNull();
  });

  it("client_secret_post: id and secret in the body", async () => {
    const { server, call } = await setup({
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_post"] },
      register: registered("client_secret_post", "pw"),
    });
    expect((await call()).status).toBe(200);
    const token = only(server, "/token")[0]!;
    expect(token.headers.authorization).toBeUndefined();
    expect(token.form.get("client_id")).toBe("id:with space");
    expect(token.form.get("client_secret")).toBe("pw");
  });

  it("none: only the client id in the body", async () => {
    const { server, call } = await setup({ register: registered("none") });
    expect((await call()).status).toBe(200);
    const token = only(server, "/token")[0]!;
    expect(token.headers.authorization).toBeUndefined();
    expect(token.form.get("client_id")).toBe("id:with space");
    expect(token.form.get("client_secret")).toBeNull();
  });

  it("sends the same RFC 8707 resource on the authorization and token requests", async () => {
    const { server, call } = await setup({});
    expect((await call()).status).toBe(200);
    expect(only(server, "/authorize")[0]!.query.get("resource")).toBe(server.mcpUrl);
    expect(only(server, "/token")[0]!.form.get("resource")).toBe(server.mcpUrl);
  });

  it("surfaces a token endpoint error with its OAuth error code", async () => {
    const { call } = await setup({ token: () => ({ status: 400, body: { error: "invalid_grant" } }) });
    const error = (await call().catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe("token_request_failed");
    expect(error.oauthError).toBe("invalid_grant");
    expect(error.status).toBe(400);
  });
});

describe("scopes", () => {
  it("uses the scope of the challenge", async () => {
    const { server, call } = await setup({ challengeScope: "mcp:basic", prmScopes: ["a", "b"] });
    expect((await call()).status).toBe(200);
    expect(only(server, "/authorize")[0]!.query.get("scope")).toBe("mcp:basic");
  });

  it("else every scope the resource lists", async () => {
    const { server, call } = await setup({ prmScopes: ["a", "b", "c"] });
    expect((await call()).status).toBe(200);
    expect(only(server, "/authorize")[0]!.query.get("scope")).toBe("a b c");
  });

  it("else no scope parameter at all", async () => {
    const { server, call } = await setup({});
    expect((await call()).status).toBe(200);
    expect(only(server, "/authorize")[0]!.query.has("scope")).toBe(false);
  });

  it("adds offline_access only when the authorization server lists it", async () => {
    const listed = await setup({ prmScopes: ["a"], metadata: { scopes_supported: ["a", "offline_access"] } });
    expect((await listed.call()).status).toBe(200);
    expect(only(listed.server, "/authorize")[0]!.query.get("scope")).toBe("a offline_access");

    const unlisted = await setup({ prmScopes: ["a"], metadata: { scopes_supported: ["a"] } });
    expect((await unlisted.call()).status).toBe(200);
    expect(only(unlisted.server, "/authorize")[0]!.query.get("scope")).toBe("a");

    const declined = await setup(
      { prmScopes: ["a"], metadata: { scopes_supported: ["a", "offline_access"] } },
      { requestOfflineAccess: false },
    );
    expect((await declined.call()).status).toBe(200);
    expect(only(declined.server, "/authorize")[0]!.query.get("scope")).toBe("a");
  });

  it("steps up on 403 insufficient_scope with the union of requested and challenged scopes", async () => {
    let calls = 0;
    const { server, call } = await setup({ challengeScope: "read" });
    server.config.resource = (authorization) => {
      const token = authorization?.slice(7);
      if (!token || !server.issued.has(token)) return undefined; // the default 401
      calls++;
      const scope = only(server, "/token").at(-1)!.form;
      const granted = only(server, "/authorize").at(-1)!.query.get("scope")?.split(" ") ?? [];
      void scope;
      if (granted.includes("write")) return { status: 200 };
      return {
        status: 403,
        headers: {
          "www-authenticate": `Bearer error="insufficient_scope", scope="write", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
        },
      };
    };
    expect((await call()).status).toBe(200);
    const scopes = only(server, "/authorize").map((r) => r.query.get("scope"));
    expect(scopes).toEqual(["read", "read write"]);
    expect(calls).toBe(2);
  });

  it("stops stepping up after maxStepUps and says why", async () => {
    const { server, call } = await setup({ challengeScope: "admin" }, { maxStepUps: 2 });
    server.config.resource = (authorization) => {
      const token = authorization?.slice(7);
      if (!token || !server.issued.has(token)) return undefined;
      return {
        status: 403,
        headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="admin"' },
      };
    };
    const error = (await call().catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe("step_up_limit");
    expect(only(server, "/authorize")).toHaveLength(3); // the first authorization + 2 step-ups
  });

  it("does not re-authorize on a 403 that is not insufficient_scope", async () => {
    const { server, call } = await setup({});
    server.config.resource = (authorization) => {
      const token = authorization?.slice(7);
      if (!token || !server.issued.has(token)) return undefined;
      return { status: 403, headers: { "www-authenticate": 'Bearer error="invalid_request"' } };
    };
    expect((await call()).status).toBe(403);
    expect(only(server, "/authorize")).toHaveLength(1);
  });
});

describe("tokens: storage, refresh, issuer binding", () => {
  it("refreshes an expired token before sending it, keeping the old refresh token when none is returned", async () => {
    let n = 0;
    const { server, call } = await setup({
      token: ({ form }) => {
        n++;
        if (form.get("grant_type") === "refresh_token") {
          expect(form.get("refresh_token")).toBe("rt-1");
          expect(form.get("resource")).toBeTruthy();
          return { body: { access_token: `fresh-${n}`, token_type: "Bearer", expires_in: 3600 } };
        }
        return {
          body: { access_token: `short-${n}`, token_type: "Bearer", expires_in: 1, refresh_token: "rt-1" },
        };
      },
    });
    expect((await call()).status).toBe(200); // expires_in 1 s is inside the 30 s skew: expired at once
    expect((await call()).status).toBe(200);
    const grants = only(server, "/token").map((r) => r.form.get("grant_type"));
    expect(grants).toEqual(["authorization_code", "refresh_token"]);
    expect(only(server, "/authorize")).toHaveLength(1);
    const last = server.requests.filter((r) => r.path === "/mcp").at(-1)!;
    expect(last.headers.authorization).toBe("Bearer fresh-2");
  });

  it("a refresh answered without a refresh token keeps the old one: stored, and sent on the next refresh", async () => {
    const store = createInMemoryTokenStore();
    const sent: Array<string | null> = [];
    const { server, call } = await setup(
      {
        token: ({ form }) => {
          if (form.get("grant_type") === "refresh_token") {
            sent.push(form.get("refresh_token"));
            // expires_in 1 s is inside the 30 s skew: every token is expired at once.
            return { body: { access_token: `fresh-${sent.length}`, token_type: "Bearer", expires_in: 1 } };
          }
          return {
            body: { access_token: "short", token_type: "Bearer", expires_in: 1, refresh_token: "rt-1" },
          };
        },
      },
      { store },
    );
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent)).toEqual(new Set(["rt-1"]));
    expect(only(server, "/authorize")).toHaveLength(1);
    const saved = await store.get(server.issuer);
    expect(saved?.tokens?.[server.mcpUrl]?.refresh_token).toBe("rt-1");
  });

  it("on a 401 for a rejected token, refreshes instead of re-authorizing", async () => {
    let n = 0;
    const { server, call } = await setup({
      token: ({ form }) => {
        n++;
        return {
          body: {
            access_token: `t-${n}`,
            token_type: "Bearer",
            ...(form.get("grant_type") === "authorization_code" ? { refresh_token: "rt" } : {}),
          },
        };
      },
    });
    expect((await call()).status).toBe(200);
    server.issued.delete("t-1"); // the server revokes the access token
    expect((await call()).status).toBe(200);
    expect(only(server, "/token").map((r) => r.form.get("grant_type"))).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
    expect(only(server, "/authorize")).toHaveLength(1);
  });

  it("re-authorizes when the refresh is refused", async () => {
    const { server, call } = await setup({});
    server.config.token = ({ form }) =>
      form.get("grant_type") === "refresh_token"
        ? { status: 400, body: { error: "invalid_grant" } }
        : {
            body: {
              access_token: `a-${only(server, "/token").length}`,
              token_type: "Bearer",
              refresh_token: "r",
            },
          };
    expect((await call()).status).toBe(200);
    server.issued.clear();
    expect((await call()).status).toBe(200);
    expect(only(server, "/authorize")).toHaveLength(2);
  });

  it("keeps credentials per issuer in the store and reuses stored tokens without a new authorization", async () => {
    const store = createInMemoryTokenStore();
    const first = await setup({}, { store });
    expect((await first.call()).status).toBe(200);
    const saved = await store.get(first.server.issuer);
    expect(saved?.client?.client_id).toMatch(/^dyn-/);
    expect(Object.keys(saved?.tokens ?? {})).toEqual([first.server.mcpUrl]);

    // A new provider (a new process) with the same store: one 401 to learn the issuer, then the stored token.
    const again = createOAuthProvider({
      serverUrl: first.server.mcpUrl,
      store,
      redirectUri: REDIRECT,
      onRedirect: headlessRedirect,
    });
    expect((await withAuth(again)(first.server.mcpUrl, { method: "POST", body: "{}" })).status).toBe(200);
    expect(only(first.server, "/authorize")).toHaveLength(1);
    expect(only(first.server, "/register")).toHaveLength(1);
  });

  it("when the resource moves to another authorization server, registers there and never presents the old client", async () => {
    const store = createInMemoryTokenStore();
    const as2 = await startLoopbackAuthServer({
      register: () => ({ client_id: "as2-client", token_endpoint_auth_method: "none" }),
    });
    servers.push(as2);
    const { server, call } = await setup(
      {
        register: () => ({
          client_id: "as1-client",
          client_secret: "x",
          token_endpoint_auth_method: "client_secret_post",
        }),
      },
      { store },
    );
    expect((await call()).status).toBe(200);
    server.config.authorizationServers = () => [as2.issuer];
    server.issued.clear();
    server.config.resource = (authorization) => {
      const token = authorization?.slice(7);
      return token && as2.issued.has(token) ? { status: 200 } : undefined;
    };
    expect((await call()).status).toBe(200);
    expect(only(as2, "/register")).toHaveLength(1);
    expect(only(as2, "/authorize")[0]!.query.get("client_id")).toBe("as2-client");
    expect(
      as2.requests.some((r) => r.body.includes("as1-client") || r.query.get("client_id") === "as1-client"),
    ).toBe(false);
    expect((await store.get(server.issuer))?.client?.client_id).toBe("as1-client");
    expect((await store.get(as2.issuer))?.client?.client_id).toBe("as2-client");
  });

  it("runs one authorization for concurrent 401s", async () => {
    const { server, provider } = await setup({});
    const f = withAuth(provider);
    const results = await Promise.all([1, 2, 3].map(() => f(server.mcpUrl, { method: "POST", body: "{}" })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(only(server, "/authorize")).toHaveLength(1);
  });

  it("authorize() logs in ahead of any request and logout() forgets the tokens", async () => {
    const { server, provider } = await setup({ prmScopes: ["x"] });
    await provider.authorize();
    expect(provider.issuer).toBe(server.issuer);
    expect((await provider.headers({ url: server.mcpUrl, method: "POST" })).authorization).toMatch(
      /^Bearer tok-/,
    );
    await provider.logout();
    expect(await provider.headers({ url: server.mcpUrl, method: "POST" })).toEqual({});
  });
});

describe("machine grants", () => {
  it("client_credentials with private_key_jwt signs an assertion for the issuer", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64");
    const pem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join("\n")}\n-----END PRIVATE KEY-----\n`;
    const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
    const { server, call } = await setup({ prmScopes: ["svc"] }, (s) => ({
      grant: "client_credentials",
      client: {
        issuer: s.issuer,
        clientId: "machine",
        privateKey: pem,
        tokenEndpointAuthMethod: "private_key_jwt",
      },
    }));
    expect((await call()).status).toBe(200);
    expect(only(server, "/authorize")).toHaveLength(0);
    const token = only(server, "/token")[0]!.form;
    expect(token.get("grant_type")).toBe("client_credentials");
    expect(token.get("scope")).toBe("svc");
    expect(token.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    const claims = verifyJwtWithJwk(token.get("client_assertion")!, jwk);
    expect(claims).toMatchObject({ iss: "machine", sub: "machine", aud: server.issuer });
  });

  it("client_credentials with client_secret_basic", async () => {
    const { server, call } = await setup({}, (s) => ({
      grant: "client_credentials",
      client: {
        issuer: s.issuer,
        clientId: "m",
        clientSecret: "s",
        tokenEndpointAuthMethod: "client_secret_basic",
      },
    }));
    expect((await call()).status).toBe(200);
    expect(only(server, "/token")[0]!.headers.authorization).toBe(`Basic ${btoa("m:s")}`);
  });

  it("client_credentials without client credentials is a configuration error", async () => {
    const { call } = await setup({}, { grant: "client_credentials" });
    expect(((await call().catch((e: unknown) => e)) as AuthError).code).toBe("invalid_configuration");
  });

  it("jwt_bearer sends the assertion and does not retry a refused one", async () => {
    const { server, call } = await setup(
      { token: () => ({ status: 400, body: { error: "invalid_grant" } }) },
      (s) => ({
        grant: { type: "jwt_bearer", assertion: async () => "workload.jwt.here" },
        client: { issuer: s.issuer, clientId: "wl", tokenEndpointAuthMethod: "none" },
      }),
    );
    const error = (await call().catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe("token_request_failed");
    const tokens = only(server, "/token");
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(tokens[0]!.form.get("assertion")).toBe("workload.jwt.here");
    expect(tokens[0]!.form.get("client_id")).toBe("wl");
  });
});

describe("DPoP", () => {
  it("binds the token to a key, handles the AS and RS nonces, and sends a fresh proof each time", async () => {
    const key = await generateDpopKey();
    const proofs: string[] = [];
    const { server, provider } = await setup(
      {
        metadata: { dpop_signing_alg_values_supported: ["ES256"] },
        token: ({ dpop }) => {
          const claims = verifyJwtWithJwk(dpop!, key.publicJwk)!;
          if (claims.nonce !== "as-nonce") {
            return { status: 400, body: { error: "use_dpop_nonce" }, headers: { "dpop-nonce": "as-nonce" } };
          }
          return { body: { access_token: "bound", token_type: "DPoP" } };
        },
      },
      { dpop: key },
    );
    server.config.resource = (authorization, _body, headers) => {
      if (!authorization) return undefined;
      expect(authorization).toBe("DPoP bound");
      const proof = headers.dpop as string;
      proofs.push(proof);
      const claims = verifyJwtWithJwk(proof, key.publicJwk)!;
      expect(claims.htm).toBe("POST");
      expect(claims.htu).toBe(server.mcpUrl);
      expect(typeof claims.ath).toBe("string");
      if (claims.nonce !== "rs-nonce") {
        return {
          status: 401,
          headers: { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": "rs-nonce" },
        };
      }
      return { status: 200 };
    };
    const f = withAuth(provider);
    expect((await f(`${server.mcpUrl}?q=1`, { method: "POST", body: "{}" })).status).toBe(200);
    expect((await f(server.mcpUrl, { method: "POST", body: "{}" })).status).toBe(200);
    expect(only(server, "/token")).toHaveLength(2); // challenged once, retried with the nonce
    expect(proofs).toHaveLength(3); // RS nonce challenge, retry, then the next request
    expect(new Set(proofs.map((p) => verifyJwtWithJwk(p, key.publicJwk)!.jti)).size).toBe(3);
  });

  it("stays with Bearer when the authorization server does not advertise DPoP", async () => {
    const { server, call } = await setup({}, { dpop: true });
    expect((await call()).status).toBe(200);
    expect(only(server, "/token")[0]!.headers.dpop).toBeUndefined();
  });
});
