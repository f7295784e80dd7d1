import { AuthError } from "../errors.js";
import { staticClientFor } from "../static-client.js";
import type { TokenSet } from "../token-store.js";
import { authorizationCodeGrant } from "./authorization-code-grant.js";
import { ensureClient } from "./client-registration.js";
import { enterpriseManagedGrant, JWT_BEARER_GRANT_TYPE } from "./enterprise-managed-grant.js";
import { type Binding, type ProviderContext, saveTokens, tokenContext } from "./provider-context.js";
import { requestToken } from "./token-request.js";

/** Splits a space-separated scope string (none: no scopes). */
export function splitScopes(scope: string | undefined): string[] {
  return scope ? scope.split(/\s+/).filter(Boolean) : [];
}

/** The scope to ask for: `scopes`, plus `offline_access` for the code grant where the server lists it. */
export function scopeFor(ctx: ProviderContext, b: Binding, scopes: string[]): string | undefined {
  const all = [...scopes];
  if (
    ctx.grant === "authorization_code" &&
    ctx.options.requestOfflineAccess !== false &&
    b.meta.scopes_supported?.includes("offline_access") &&
    !all.includes("offline_access")
  ) {
    all.push("offline_access");
  }
  return all.length > 0 ? all.join(" ") : undefined;
}

/** Gets new tokens for the binding with the provider's grant (asking for `scope`) and stores them. */
export async function obtainTokens(
  ctx: ProviderContext,
  b: Binding,
  scope: string | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { grant } = ctx;
  let tokens: TokenSet;
  if (typeof grant === "object" && grant.type === "enterprise_managed") {
    tokens = await enterpriseManagedGrant(ctx, grant, b, scope, signal);
  } else if (typeof grant === "object") {
    const client = staticClientFor(ctx.options.client, b) ? await ensureClient(ctx, b, signal) : undefined;
    const assertion = typeof grant.assertion === "function" ? await grant.assertion() : grant.assertion;
    const params: Record<string, string> = {
      grant_type: JWT_BEARER_GRANT_TYPE,
      assertion,
      resource: b.resource,
    };
    if (scope) params.scope = scope;
    tokens = await requestToken(await tokenContext(ctx, b, client, signal), params, scope);
  } else if (grant === "client_credentials") {
    if (!staticClientFor(ctx.options.client, b)) {
      throw new AuthError("invalid_configuration", "the client_credentials grant needs `client` credentials");
    }
    const client = await ensureClient(ctx, b, signal);
    const params: Record<string, string> = { grant_type: "client_credentials", resource: b.resource };
    if (scope) params.scope = scope;
    tokens = await requestToken(await tokenContext(ctx, b, client, signal), params, scope);
  } else {
    tokens = await authorizationCodeGrant(ctx, b, scope, signal);
  }
  await saveTokens(ctx, b, tokens);
}
