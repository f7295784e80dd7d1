import type { AuthorizationServerMetadata, FetchLike, ProtectedResourceMetadata } from "../discovery.js";
import { type DpopKey, generateDpopKey } from "../dpop.js";
import type { OAuthGrant, OAuthProviderOptions } from "../oauth-provider-options.js";
import type { IssuerCredentials, TokenSet, TokenStore } from "../token-store.js";
import type { ClientAuth, TokenRequestContext } from "./token-request.js";

/** The authorization server a provider uses for its MCP server right now, as discovery found it. */
export interface Binding {
  issuer: string;
  /** Where the protected resource metadata naming `issuer` was found. */
  prmUrl: string;
  resource: string;
  prm: ProtectedResourceMetadata;
  meta: AuthorizationServerMetadata;
}

/** What every step of one OAuth provider reads: its options and the state that outlives one flow. */
export interface ProviderContext {
  readonly options: OAuthProviderOptions;
  readonly fetch: FetchLike;
  readonly store: TokenStore;
  readonly serverUrl: URL;
  readonly grant: OAuthGrant;
  /** Authorization server metadata per issuer, fetched once. */
  readonly metadataCache: Map<string, AuthorizationServerMetadata>;
  /** DPoP nonces the authorization servers handed out, per token endpoint origin. */
  readonly asNonces: Map<string, string>;
  /** The DPoP key: the one given, else made on first use. */
  dpopKey: DpopKey | undefined;
  /** The enterprise IdP's token endpoint, discovered once from its issuer. */
  idpTokenEndpoint: string | undefined;
}

/** The credentials the store holds for `issuer` (empty when none). */
export async function credentials(ctx: ProviderContext, issuer: string): Promise<IssuerCredentials> {
  return (await ctx.store.get(issuer)) ?? {};
}

/** Keeps (or with undefined, forgets) the tokens for the binding's resource at its issuer. */
export async function saveTokens(
  ctx: ProviderContext,
  b: Binding,
  tokens: TokenSet | undefined,
): Promise<void> {
  const creds = await credentials(ctx, b.issuer);
  const all = { ...(creds.tokens ?? {}) };
  if (tokens) all[b.resource] = tokens;
  else delete all[b.resource];
  await ctx.store.set(b.issuer, { ...creds, tokens: all });
}

async function dpopFor(
  ctx: ProviderContext,
  meta: AuthorizationServerMetadata,
): Promise<DpopKey | undefined> {
  if (!ctx.options.dpop) return undefined;
  const algs = meta.dpop_signing_alg_values_supported;
  if (!Array.isArray(algs)) return undefined;
  ctx.dpopKey ??= await generateDpopKey("ES256");
  return algs.includes(ctx.dpopKey.alg) ? ctx.dpopKey : undefined;
}

/** What a token request at the binding's authorization server needs. */
export async function tokenContext(
  ctx: ProviderContext,
  b: Binding,
  client: ClientAuth | undefined,
  signal: AbortSignal | undefined,
): Promise<TokenRequestContext> {
  return {
    fetch: ctx.fetch,
    meta: b.meta,
    client,
    dpop: await dpopFor(ctx, b.meta),
    nonces: ctx.asNonces,
    signal,
  };
}
