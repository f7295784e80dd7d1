import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  discoverProtectedResource,
  type FetchLike,
  type ProtectedResourceMetadata,
} from "./discovery.js";
import { createDpopProof, type DpopKey, generateDpopKey } from "./dpop.js";
import { AuthError } from "./errors.js";
import { type EnterpriseIdp, requestIdJag } from "./identity-assertion-grant.js";
import { isRecord, randomToken } from "./internal/encoding.js";
import type { JwsAlgorithm } from "./internal/jose.js";
import { type ClientAuth, requestToken } from "./internal/token-request.js";
import { createPkce } from "./pkce.js";
import type { AuthProvider, AuthRequestInfo, UnauthorizedRequestInfo } from "./provider.js";
import {
  type ClientRegistration,
  createInMemoryTokenStore,
  type IssuerCredentials,
  type TokenSet,
  type TokenStore,
} from "./token-store.js";
import { readResourceChallenge } from "./www-authenticate.js";

/** Credentials of a client registered with an authorization server out of band. */
export interface StaticClient {
  clientId: string;
  clientSecret?: string;
  /** Default: `private_key_jwt` with a key, else the best `client_secret_*` the server supports, else `none`. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt";
  /** For `private_key_jwt`: a WebCrypto private key or a PKCS#8 PEM string. */
  privateKey?: CryptoKey | string;
  /** The JWS algorithm of `privateKey`; default ES256. */
  signingAlgorithm?: JwsAlgorithm;
}

/** The grant a provider uses to get tokens. */
export type OAuthGrant =
  /** A user authorizes in a browser (the default); needs `redirectUri` and `onRedirect`. */
  | "authorization_code"
  /** A machine client authenticates itself (`client` with a secret or private key). */
  | "client_credentials"
  /** RFC 7523 JWT bearer grant with a workload identity assertion (never retried on failure). */
  | { type: "jwt_bearer"; assertion: string | (() => string | Promise<string>) }
  /**
   * Enterprise-Managed Authorization: the user's identity assertion from single sign-on (an ID Token or
   * a SAML assertion; a function is asked again for each new grant, so it can hand a fresh one) is
   * exchanged at the enterprise `idp` for an ID-JAG (RFC 8693), which is presented to the MCP server's
   * authorization server as a JWT bearer grant (RFC 7523) with this client's `client` credentials
   * there. No browser, no redirect. @see {@link requestIdJag}
   */
  | {
      type: "enterprise_managed";
      identityAssertion: string | (() => string | Promise<string>);
      /** What `identityAssertion` is; default `id_token`. */
      assertionType?: "id_token" | "saml2";
      idp: EnterpriseIdp;
    };

/** Metadata sent in Dynamic Client Registration (RFC 7591); the provider fills the protocol members. */
export interface ClientMetadata {
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  /** `native` for desktop/CLI/loopback redirects, `web` for remote web apps. Default: from `redirectUri`. */
  application_type?: "native" | "web";
  [key: string]: unknown;
}

/** Options of {@link createOAuthProvider}. */
export interface OAuthProviderOptions {
  /** The MCP server URL (the Streamable HTTP endpoint) the provider authorizes requests to. */
  serverUrl: string | URL;
  /** The fetch for discovery, registration and token requests; default the global one. */
  fetch?: FetchLike;
  /** Where credentials are kept per issuer; default {@link createInMemoryTokenStore}. */
  store?: TokenStore;
  /** Default `authorization_code`. */
  grant?: OAuthGrant;
  /** The redirect URI (loopback or HTTPS) for the authorization code grant. */
  redirectUri?: string;
  /**
   * The host's redirect step: send the user to `authorizationUrl` (open a browser, print it, ...) and
   * resolve with the URL the authorization server redirected back to (or just its query string).
   * Reject (or abort) to stop the flow.
   */
  onRedirect?: (
    authorizationUrl: URL,
    context: { signal?: AbortSignal },
  ) => Promise<string | URL | URLSearchParams>;
  /** Pre-registered credentials: one client for every issuer, or a lookup by issuer. Tried first. */
  client?: StaticClient | ((issuer: string) => StaticClient | undefined);
  /** An HTTPS URL of this client's Client ID Metadata Document, used where the server supports CIMD. */
  clientMetadataUrl?: string;
  /** Dynamic Client Registration metadata (the last resort, deprecated in 2026-07-28). */
  clientMetadata?: ClientMetadata;
  /** Ask for `offline_access` when the authorization server lists it, to get a refresh token. Default true. */
  requestOfflineAccess?: boolean;
  /** Step-up authorizations (403 `insufficient_scope`) in a row before giving up. Default 2. */
  maxStepUps?: number;
  /**
   * DPoP (RFC 9449): when true (or a key), tokens are requested bound to a key wherever the authorization
   * server advertises `dpop_signing_alg_values_supported` with the key's algorithm, and presented with
   * fresh proofs. Default false (Bearer).
   */
  dpop?: boolean | DpopKey;
  /** Chooses among the resource's authorization servers; default the first. */
  selectAuthorizationServer?: (issuers: string[]) => string;
  /** Seconds before `expires_at` when a token counts as expired (refresh ahead). Default 30. */
  expirySkewSeconds?: number;
}

/** The auth provider {@link createOAuthProvider} returns, with a few extras for hosts. */
export interface OAuthProvider extends AuthProvider {
  /** The issuer the provider currently uses for the server, once discovered. */
  readonly issuer: string | undefined;
  /** The RFC 8707 resource the tokens are for, once discovered. */
  readonly resource: string | undefined;
  /** Runs discovery and authorization now instead of waiting for a 401 (e.g. a CLI `login`). */
  authorize(options?: { scope?: string; signal?: AbortSignal }): Promise<void>;
  /** Forgets the tokens held for this server (its client registration is kept). */
  logout(): Promise<void>;
}

const JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

interface Binding {
  issuer: string;
  resource: string;
  prm: ProtectedResourceMetadata;
  meta: AuthorizationServerMetadata;
}

function splitScopes(scope: string | undefined): string[] {
  return scope ? scope.split(/\s+/).filter(Boolean) : [];
}

function isLoopbackOrNative(uri: string | undefined): boolean {
  if (!uri) return true;
  try {
    const url = new URL(uri);
    if (url.protocol !== "http:" && url.protocol !== "https:") return true;
    return ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  } catch {
    return true;
  }
}

/**
 * Creates the OAuth 2.1 client side of MCP authorization as an {@link AuthProvider} for one MCP server.
 *
 * On a 401 it reads the challenge, finds the protected resource metadata (the `resource_metadata` URL,
 * else the path-aware then root well-known URL; the `resource` must match the server), picks an
 * authorization server, fetches its metadata (OAuth then OpenID Connect well-known URLs; `issuer` must
 * match exactly), then gets a token: a stored one, a refresh, or a new grant. For the authorization code
 * grant it refuses servers without PKCE `S256`, obtains a client id (pre-registered, then Client ID Metadata
 * Document, then Dynamic Client Registration with `application_type`), sends `resource` (RFC 8707) on the
 * authorization and token requests, and checks `state` and `iss` (RFC 9207, simple string comparison) on
 * the response. Scopes come from the challenge, else the resource's `scopes_supported`; on 403
 * `insufficient_scope` it re-authorizes with the union of requested and challenged scopes, at most
 * `maxStepUps` times in a row. Credentials are stored per issuer and never presented to another.
 *
 * It does no I/O until the first 401 (or {@link OAuthProvider.authorize}).
 *
 * With `grant: { type: "enterprise_managed" }` the token comes from the enterprise IdP's ID-JAG instead
 * (see {@link requestIdJag}): no redirect, and a pre-registered `client` is required.
 *
 * @see MCP 2026-07-28 basic/authorization; RFC 9728, RFC 8414, RFC 7636, RFC 8707, RFC 9207, RFC 7591,
 *   RFC 6749 §2.3.1, RFC 7523, RFC 9449, RFC 8693; ext-auth Enterprise-Managed Authorization
 */
export function createOAuthProvider(options: OAuthProviderOptions): OAuthProvider {
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const store = options.store ?? createInMemoryTokenStore();
  const grant = options.grant ?? "authorization_code";
  const maxStepUps = options.maxStepUps ?? 2;
  const skewMs = (options.expirySkewSeconds ?? 30) * 1000;
  const serverUrl = new URL(options.serverUrl);

  let binding: Binding | undefined;
  const metadataCache = new Map<string, AuthorizationServerMetadata>();
  const sentTokens = new Set<string>();
  const asNonces = new Map<string, string>();
  let resourceNonce: string | undefined;
  let requestedScopes: string[] = [];
  let stepUps = 0;
  let dpopKey: DpopKey | undefined = typeof options.dpop === "object" ? options.dpop : undefined;
  // The enterprise IdP's token endpoint, discovered once from its issuer.
  let idpTokenEndpoint: string | undefined;
  // One authorization at a time: concurrent 401s wait for the running flow instead of starting their own.
  let lock: Promise<unknown> = Promise.resolve();

  function serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = lock.then(fn, fn);
    lock = run.catch(() => {});
    return run;
  }

  async function credentials(issuer: string): Promise<IssuerCredentials> {
    return (await store.get(issuer)) ?? {};
  }

  async function saveTokens(b: Binding, tokens: TokenSet | undefined): Promise<void> {
    const creds = await credentials(b.issuer);
    const all = { ...(creds.tokens ?? {}) };
    if (tokens) all[b.resource] = tokens;
    else delete all[b.resource];
    await store.set(b.issuer, { ...creds, tokens: all });
  }

  async function dpopFor(meta: AuthorizationServerMetadata): Promise<DpopKey | undefined> {
    if (!options.dpop) return undefined;
    const algs = meta.dpop_signing_alg_values_supported;
    if (!Array.isArray(algs)) return undefined;
    dpopKey ??= await generateDpopKey("ES256");
    return algs.includes(dpopKey.alg) ? dpopKey : undefined;
  }

  function staticClient(issuer: string): StaticClient | undefined {
    return typeof options.client === "function" ? options.client(issuer) : options.client;
  }

  function clientAuth(issuer: string, registration: ClientRegistration): ClientAuth {
    const fixed = staticClient(issuer);
    const auth: ClientAuth = { registration };
    if (registration.source === "static" && fixed?.privateKey !== undefined) {
      auth.privateKey = fixed.privateKey;
      if (fixed.signingAlgorithm) auth.signingAlgorithm = fixed.signingAlgorithm;
    }
    return auth;
  }

  async function bind(
    resourceMetadataUrl: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Binding> {
    const { metadata: prm } = await discoverProtectedResource(serverUrl, {
      fetch: fetchFn,
      resourceMetadataUrl,
      ...(signal ? { signal } : {}),
    });
    const issuers = prm.authorization_servers.filter((s): s is string => typeof s === "string");
    const issuer = options.selectAuthorizationServer
      ? options.selectAuthorizationServer(issuers)
      : issuers[0]!;
    let meta = metadataCache.get(issuer);
    if (!meta) {
      meta = await discoverAuthorizationServer(issuer, { fetch: fetchFn, ...(signal ? { signal } : {}) });
      metadataCache.set(issuer, meta);
    }
    if (binding && binding.issuer !== issuer) requestedScopes = [];
    binding = { issuer, resource: prm.resource, prm, meta };
    return binding;
  }

  async function ensureClient(b: Binding, signal: AbortSignal | undefined): Promise<ClientRegistration> {
    const creds = await credentials(b.issuer);
    if (creds.client) return creds.client;
    let client: ClientRegistration;
    const fixed = staticClient(b.issuer);
    if (fixed) {
      client = { client_id: fixed.clientId, source: "static" };
      if (fixed.clientSecret !== undefined) client.client_secret = fixed.clientSecret;
      if (fixed.tokenEndpointAuthMethod) client.token_endpoint_auth_method = fixed.tokenEndpointAuthMethod;
    } else if (options.clientMetadataUrl && b.meta.client_id_metadata_document_supported === true) {
      client = { client_id: options.clientMetadataUrl, token_endpoint_auth_method: "none", source: "cimd" };
    } else if (b.meta.registration_endpoint) {
      client = await register(b, signal);
    } else {
      throw new AuthError(
        "registration_unavailable",
        `no client id for ${b.issuer}: no pre-registered client, no Client ID Metadata Document support, no registration endpoint`,
      );
    }
    await store.set(b.issuer, { ...(await credentials(b.issuer)), client });
    return client;
  }

  async function register(b: Binding, signal: AbortSignal | undefined): Promise<ClientRegistration> {
    const supported = b.meta.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    // A native client cannot keep a secret, so it prefers `none` (PKCE protects the code).
    const method =
      ["none", "client_secret_basic", "client_secret_post"].find((m) => supported.includes(m)) ?? "none";
    const body: Record<string, unknown> = {
      client_name: "mcpkit",
      redirect_uris: options.redirectUri ? [options.redirectUri] : [],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: method,
      application_type: isLoopbackOrNative(options.redirectUri) ? "native" : "web",
      ...options.clientMetadata,
    };
    let response: Response;
    try {
      response = await fetchFn(b.meta.registration_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new AuthError("registration_failed", `registration at ${b.meta.registration_endpoint} failed`, {
        cause: error,
      });
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok || !isRecord(json) || typeof json.client_id !== "string") {
      const oauthError = isRecord(json) && typeof json.error === "string" ? json.error : undefined;
      throw new AuthError(
        "registration_failed",
        `registration at ${b.meta.registration_endpoint} was refused: ${response.status}${oauthError ? ` ${oauthError}` : ""}`,
        { status: response.status, ...(oauthError ? { oauthError } : {}) },
      );
    }
    const client: ClientRegistration = { client_id: json.client_id, source: "dynamic" };
    if (typeof json.client_secret === "string") client.client_secret = json.client_secret;
    if (typeof json.token_endpoint_auth_method === "string") {
      client.token_endpoint_auth_method = json.token_endpoint_auth_method;
    } else if (client.client_secret === undefined) {
      client.token_endpoint_auth_method = "none";
    } else {
      // A secret without a method: use it the way the server says it accepts secrets, else as asked.
      client.token_endpoint_auth_method =
        ["client_secret_basic", "client_secret_post"].find((m) => supported.includes(m)) ?? method;
    }
    if (typeof json.client_secret_expires_at === "number")
      client.client_secret_expires_at = json.client_secret_expires_at;
    return client;
  }

  function scopeFor(b: Binding, scopes: string[]): string | undefined {
    const all = [...scopes];
    if (
      grant === "authorization_code" &&
      options.requestOfflineAccess !== false &&
      b.meta.scopes_supported?.includes("offline_access") &&
      !all.includes("offline_access")
    ) {
      all.push("offline_access");
    }
    return all.length > 0 ? all.join(" ") : undefined;
  }

  async function tokenContext(b: Binding, client: ClientAuth | undefined, signal: AbortSignal | undefined) {
    return { fetch: fetchFn, meta: b.meta, client, dpop: await dpopFor(b.meta), nonces: asNonces, signal };
  }

  async function obtain(b: Binding, scopes: string[], signal: AbortSignal | undefined): Promise<void> {
    const scope = scopeFor(b, scopes);
    requestedScopes = splitScopes(scope);
    let tokens: TokenSet;
    if (typeof grant === "object" && grant.type === "enterprise_managed") {
      tokens = await enterpriseManaged(grant, b, scope, signal);
    } else if (typeof grant === "object") {
      const fixed = staticClient(b.issuer);
      const client = fixed ? clientAuth(b.issuer, await ensureClient(b, signal)) : undefined;
      const assertion = typeof grant.assertion === "function" ? await grant.assertion() : grant.assertion;
      const params: Record<string, string> = {
        grant_type: JWT_BEARER_GRANT_TYPE,
        assertion,
        resource: b.resource,
      };
      if (scope) params.scope = scope;
      tokens = await requestToken(await tokenContext(b, client, signal), params, scope);
    } else if (grant === "client_credentials") {
      if (!staticClient(b.issuer)) {
        throw new AuthError(
          "invalid_configuration",
          "the client_credentials grant needs `client` credentials",
        );
      }
      const client = clientAuth(b.issuer, await ensureClient(b, signal));
      const params: Record<string, string> = { grant_type: "client_credentials", resource: b.resource };
      if (scope) params.scope = scope;
      tokens = await requestToken(await tokenContext(b, client, signal), params, scope);
    } else {
      tokens = await authorizationCode(b, scope, signal);
    }
    await saveTokens(b, tokens);
  }

  async function enterpriseManaged(
    g: Extract<OAuthGrant, { type: "enterprise_managed" }>,
    b: Binding,
    scope: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<TokenSet> {
    // The ID-JAG names the client the IdP knows for this server: a registration made here on the fly
    // would not match it, so the client must be registered out of band. @see ext-auth §6.1
    if (!staticClient(b.issuer)) {
      throw new AuthError(
        "invalid_configuration",
        "the enterprise_managed grant needs `client` credentials registered at the MCP server's authorization server",
      );
    }
    const grants = b.meta.grant_types_supported;
    if (Array.isArray(grants) && !grants.includes(JWT_BEARER_GRANT_TYPE)) {
      // Refuse before the exchange: the IdP would record (and maybe audit) a grant nobody can use.
      throw new AuthError(
        "grant_not_supported",
        `authorization server ${b.issuer} does not list ${JWT_BEARER_GRANT_TYPE} in grant_types_supported`,
      );
    }
    const client = clientAuth(b.issuer, await ensureClient(b, signal));
    if (!g.idp.tokenEndpoint && g.idp.issuer && idpTokenEndpoint === undefined) {
      const idpMeta = await discoverAuthorizationServer(g.idp.issuer, {
        fetch: fetchFn,
        ...(signal ? { signal } : {}),
      });
      if (!idpMeta.token_endpoint) {
        throw new AuthError(
          "invalid_configuration",
          `identity provider ${g.idp.issuer} has no token_endpoint`,
        );
      }
      idpTokenEndpoint = idpMeta.token_endpoint;
    }
    const idp: EnterpriseIdp =
      g.idp.tokenEndpoint || idpTokenEndpoint === undefined
        ? g.idp
        : { ...g.idp, tokenEndpoint: idpTokenEndpoint };
    const identityAssertion =
      typeof g.identityAssertion === "function" ? await g.identityAssertion() : g.identityAssertion;
    const jag = await requestIdJag({
      idp,
      identityAssertion,
      ...(g.assertionType ? { assertionType: g.assertionType } : {}),
      audience: b.meta.issuer,
      resource: b.resource,
      ...(scope ? { scope } : {}),
      fetch: fetchFn,
      ...(signal ? { signal } : {}),
    });
    const params: Record<string, string> = {
      grant_type: JWT_BEARER_GRANT_TYPE,
      assertion: jag.assertion,
      resource: b.resource,
    };
    if (scope) params.scope = scope;
    return requestToken(await tokenContext(b, client, signal), params, jag.scope ?? scope);
  }

  async function authorizationCode(b: Binding, scope: string | undefined, signal: AbortSignal | undefined) {
    const methods = b.meta.code_challenge_methods_supported;
    if (!Array.isArray(methods) || !methods.includes("S256")) {
      throw new AuthError(
        "pkce_not_supported",
        `authorization server ${b.issuer} does not advertise PKCE S256 (code_challenge_methods_supported)`,
      );
    }
    if (!b.meta.authorization_endpoint) {
      throw new AuthError(
        "invalid_configuration",
        `authorization server ${b.issuer} has no authorization_endpoint`,
      );
    }
    if (!options.onRedirect || !options.redirectUri) {
      throw new AuthError(
        "invalid_configuration",
        "the authorization code grant needs `redirectUri` and `onRedirect`",
      );
    }
    const registration = await ensureClient(b, signal);
    const pkce = await createPkce();
    const state = randomToken(24);
    const url = new URL(b.meta.authorization_endpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", registration.client_id);
    url.searchParams.set("redirect_uri", options.redirectUri);
    url.searchParams.set("code_challenge", pkce.challenge);
    url.searchParams.set("code_challenge_method", pkce.method);
    url.searchParams.set("state", state);
    if (scope) url.searchParams.set("scope", scope);
    url.searchParams.set("resource", b.resource);

    let returned: string | URL | URLSearchParams;
    try {
      returned = await options.onRedirect(url, signal ? { signal } : {});
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof AuthError) throw error;
      throw new AuthError("redirect_failed", "the redirect step did not complete", { cause: error });
    }
    const params =
      returned instanceof URLSearchParams
        ? returned
        : returned instanceof URL
          ? returned.searchParams
          : returned.includes("://")
            ? new URL(returned).searchParams
            : new URLSearchParams(returned.replace(/^\?/, ""));
    // RFC 9207 first, before trusting anything else in the response (error responses included).
    const iss = params.get("iss");
    if (iss !== null) {
      if (iss !== b.meta.issuer) {
        throw new AuthError(
          "invalid_authorization_response",
          `authorization response iss ${iss} is not the issuer ${b.meta.issuer}`,
        );
      }
    } else if (b.meta.authorization_response_iss_parameter_supported === true) {
      throw new AuthError(
        "invalid_authorization_response",
        `authorization server ${b.meta.issuer} advertises the iss parameter but the response has none`,
      );
    }
    if (params.get("state") !== state) {
      throw new AuthError("invalid_authorization_response", "authorization response state does not match");
    }
    const error = params.get("error");
    if (error !== null) {
      const description = params.get("error_description") ?? undefined;
      throw new AuthError("authorization_denied", `authorization was refused: ${error}`, {
        oauthError: error,
        ...(description !== undefined ? { oauthErrorDescription: description } : {}),
      });
    }
    const code = params.get("code");
    if (!code) throw new AuthError("invalid_authorization_response", "authorization response has no code");
    return requestToken(
      await tokenContext(b, clientAuth(b.issuer, registration), signal),
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: options.redirectUri,
        code_verifier: pkce.verifier,
        resource: b.resource,
      },
      scope,
    );
  }

  async function refresh(b: Binding, tokens: TokenSet, signal: AbortSignal | undefined): Promise<boolean> {
    if (!tokens.refresh_token) return false;
    const creds = await credentials(b.issuer);
    const client = creds.client ? clientAuth(b.issuer, creds.client) : undefined;
    try {
      const fresh = await requestToken(
        await tokenContext(b, client, signal),
        { grant_type: "refresh_token", refresh_token: tokens.refresh_token, resource: b.resource },
        tokens.scope,
      );
      // RFC 6749 §6: the server may keep the old refresh token.
      if (!fresh.refresh_token) fresh.refresh_token = tokens.refresh_token;
      await saveTokens(b, fresh);
      return true;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // The server refused the refresh token: forget it and authorize anew. Anything else (the server
      // could not be reached) is not a reason to throw credentials away.
      if (error instanceof AuthError && error.status !== undefined) {
        await saveTokens(b, undefined);
        return false;
      }
      throw error;
    }
  }

  async function currentTokens(): Promise<TokenSet | undefined> {
    if (!binding) return undefined;
    return (await credentials(binding.issuer)).tokens?.[binding.resource];
  }

  function expired(tokens: TokenSet): boolean {
    return tokens.expires_at !== undefined && tokens.expires_at - skewMs <= Date.now();
  }

  async function handleUnauthorized(
    response: Response,
    request: UnauthorizedRequestInfo | undefined,
  ): Promise<boolean> {
    const signal = request?.signal;
    const challenge = readResourceChallenge(response.headers.get("www-authenticate"));
    const nonce = response.headers.get("dpop-nonce");
    if (challenge.error === "use_dpop_nonce") {
      if (!nonce || nonce === resourceNonce) return false;
      resourceNonce = nonce;
      return true;
    }
    if (nonce) resourceNonce = nonce;

    if (response.status === 403) {
      if (challenge.error !== "insufficient_scope") return false;
      if (stepUps >= maxStepUps) {
        throw new AuthError(
          "step_up_limit",
          `the server still answers insufficient_scope after ${stepUps} step-up authorization(s)`,
        );
      }
      stepUps++;
      const b = binding ?? (await bind(challenge.resourceMetadata, signal));
      const union = [...new Set([...requestedScopes, ...splitScopes(challenge.scope)])];
      await obtain(b, union, signal);
      return true;
    }
    if (response.status !== 401) return false;

    // Re-discover on every 401: the resource may have moved to another authorization server.
    const b = await bind(challenge.resourceMetadata, signal);
    const tokens = await currentTokens();
    if (tokens) {
      // Only a token the refused request carried is known bad; any other stored token is worth one try.
      const refused =
        request && "authorization" in request
          ? (request.authorization?.endsWith(` ${tokens.access_token}`) ?? false)
          : sentTokens.has(tokens.access_token);
      if (!refused && !expired(tokens)) return true;
      if (await refresh(b, tokens, signal)) return true;
      await saveTokens(b, undefined);
    }
    const scopes = challenge.scope ? splitScopes(challenge.scope) : (b.prm.scopes_supported ?? []);
    await obtain(b, scopes, signal);
    return true;
  }

  const provider: OAuthProvider = {
    get issuer() {
      return binding?.issuer;
    },
    get resource() {
      return binding?.resource;
    },

    async headers(request?: AuthRequestInfo): Promise<Record<string, string>> {
      let tokens = await currentTokens();
      if (!tokens || !binding) return {};
      if (expired(tokens)) {
        const b = binding;
        const stale = tokens;
        await serialized(async () => {
          const latest = await currentTokens();
          if (latest && latest.access_token === stale.access_token) {
            if (!(await refresh(b, stale, request?.signal))) await saveTokens(b, undefined);
          }
        });
        tokens = await currentTokens();
        if (!tokens) return {};
      }
      sentTokens.add(tokens.access_token);
      if (tokens.token_type.toLowerCase() === "dpop" && dpopKey) {
        const proof = await createDpopProof(dpopKey, {
          htm: request?.method ?? "POST",
          htu: request?.url ?? serverUrl.href,
          accessToken: tokens.access_token,
          ...(resourceNonce !== undefined ? { nonce: resourceNonce } : {}),
        });
        return { authorization: `DPoP ${tokens.access_token}`, dpop: proof };
      }
      return { authorization: `Bearer ${tokens.access_token}` };
    },

    onUnauthorized(response: Response, request?: UnauthorizedRequestInfo): Promise<boolean> {
      return serialized(() => handleUnauthorized(response, request));
    },

    onResponse(response: Response): void {
      // A challenged response's nonce is onUnauthorized's to judge (a repeated nonce means retrying is futile).
      if (response.status === 401 || response.status === 403) return;
      const nonce = response.headers.get("dpop-nonce");
      if (nonce) resourceNonce = nonce;
      if (response.status < 400) stepUps = 0;
    },

    authorize(opts = {}) {
      return serialized(async () => {
        const b = await bind(undefined, opts.signal);
        const scopes = opts.scope !== undefined ? splitScopes(opts.scope) : (b.prm.scopes_supported ?? []);
        await obtain(b, scopes, opts.signal);
      });
    },

    logout() {
      return serialized(async () => {
        if (binding) await saveTokens(binding, undefined);
      });
    },
  };
  return provider;
}
