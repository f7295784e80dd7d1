import { createDpopProof } from "./dpop.js";
import { AuthError } from "./errors.js";
import { bindAuthorizationServer } from "./internal/authorization-server-binding.js";
import { obtainTokens, scopeFor, splitScopes } from "./internal/obtain-tokens.js";
import { type Binding, credentials, type ProviderContext, saveTokens } from "./internal/provider-context.js";
import { refreshTokens } from "./internal/token-refresh.js";
import type { OAuthProviderOptions } from "./oauth-provider-options.js";
import type { AuthProvider, AuthRequestInfo, UnauthorizedRequestInfo } from "./provider.js";
import { checkStaticClientOption } from "./static-client.js";
import { createInMemoryTokenStore, type TokenSet } from "./token-store.js";
import { readResourceChallenge } from "./www-authenticate.js";

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
  checkStaticClientOption(options.client);
  const ctx: ProviderContext = {
    options,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    store: options.store ?? createInMemoryTokenStore(),
    serverUrl: new URL(options.serverUrl),
    grant: options.grant ?? "authorization_code",
    metadataCache: new Map(),
    asNonces: new Map(),
    dpopKey: typeof options.dpop === "object" ? options.dpop : undefined,
    idpTokenEndpoint: undefined,
  };
  const maxStepUps = options.maxStepUps ?? 2;
  const skewMs = (options.expirySkewSeconds ?? 30) * 1000;
  const serverUrl = ctx.serverUrl;

  let binding: Binding | undefined;
  const sentTokens = new Set<string>();
  let resourceNonce: string | undefined;
  let requestedScopes: string[] = [];
  let stepUps = 0;
  // One authorization at a time: concurrent 401s wait for the running flow instead of starting their own.
  let lock: Promise<unknown> = Promise.resolve();

  function serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = lock.then(fn, fn);
    lock = run.catch(() => {});
    return run;
  }

  async function bind(resourceMetadataUrl: string | undefined, signal: AbortSignal | undefined) {
    const next = await bindAuthorizationServer(ctx, resourceMetadataUrl, signal);
    if (binding && binding.issuer !== next.issuer) requestedScopes = [];
    binding = next;
    return next;
  }

  async function obtain(b: Binding, scopes: string[], signal: AbortSignal | undefined): Promise<void> {
    const scope = scopeFor(ctx, b, scopes);
    requestedScopes = splitScopes(scope);
    await obtainTokens(ctx, b, scope, signal);
  }

  function refresh(b: Binding, tokens: TokenSet, signal: AbortSignal | undefined): Promise<boolean> {
    return refreshTokens(ctx, b, tokens, signal);
  }

  async function currentTokens(): Promise<TokenSet | undefined> {
    if (!binding) return undefined;
    return (await credentials(ctx, binding.issuer)).tokens?.[binding.resource];
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
      await saveTokens(ctx, b, undefined);
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
            if (!(await refresh(b, stale, request?.signal))) await saveTokens(ctx, b, undefined);
          }
        });
        tokens = await currentTokens();
        if (!tokens) return {};
      }
      sentTokens.add(tokens.access_token);
      if (tokens.token_type.toLowerCase() === "dpop" && ctx.dpopKey) {
        const proof = await createDpopProof(ctx.dpopKey, {
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
        if (binding) await saveTokens(ctx, binding, undefined);
      });
    },
  };
  return provider;
}
