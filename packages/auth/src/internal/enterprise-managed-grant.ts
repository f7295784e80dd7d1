import { discoverAuthorizationServer } from "../discovery.js";
import { AuthError } from "../errors.js";
import { type EnterpriseIdp, requestIdJag } from "../identity-assertion-grant.js";
import type { OAuthGrant } from "../oauth-provider-options.js";
import { staticClientFor } from "../static-client.js";
import type { TokenSet } from "../token-store.js";
import { ensureClient } from "./client-registration.js";
import { type Binding, type ProviderContext, tokenContext } from "./provider-context.js";
import { requestToken } from "./token-request.js";

/** RFC 7523 JWT bearer grant type (the grant an ID-JAG or a workload identity assertion is presented with). */
export const JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * Enterprise-Managed Authorization: exchanges the identity assertion at the enterprise IdP for an ID-JAG,
 * then presents it to the binding's authorization server as a JWT bearer grant with the pre-registered
 * client.
 *
 * @throws {AuthError} `invalid_configuration` without a pre-registered client; `grant_not_supported` when
 *   the authorization server does not list the JWT bearer grant; `token_request_failed`.
 * @see ext-auth "Enterprise-Managed Authorization"
 */
export async function enterpriseManagedGrant(
  ctx: ProviderContext,
  g: Extract<OAuthGrant, { type: "enterprise_managed" }>,
  b: Binding,
  scope: string | undefined,
  signal: AbortSignal | undefined,
): Promise<TokenSet> {
  // The ID-JAG names the client the IdP knows for this server: a registration made here on the fly
  // would not match it, so the client must be registered out of band. @see ext-auth §6.1
  if (!staticClientFor(ctx.options.client, b)) {
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
  const client = await ensureClient(ctx, b, signal);
  if (!g.idp.tokenEndpoint && g.idp.issuer && ctx.idpTokenEndpoint === undefined) {
    const idpMeta = await discoverAuthorizationServer(g.idp.issuer, {
      fetch: ctx.fetch,
      ...(signal ? { signal } : {}),
    });
    if (!idpMeta.token_endpoint) {
      throw new AuthError("invalid_configuration", `identity provider ${g.idp.issuer} has no token_endpoint`);
    }
    ctx.idpTokenEndpoint = idpMeta.token_endpoint;
  }
  const idp: EnterpriseIdp =
    g.idp.tokenEndpoint || ctx.idpTokenEndpoint === undefined
      ? g.idp
      : { ...g.idp, tokenEndpoint: ctx.idpTokenEndpoint };
  const identityAssertion =
    typeof g.identityAssertion === "function" ? await g.identityAssertion() : g.identityAssertion;
  const jag = await requestIdJag({
    idp,
    identityAssertion,
    ...(g.assertionType ? { assertionType: g.assertionType } : {}),
    audience: b.meta.issuer,
    resource: b.resource,
    ...(scope ? { scope } : {}),
    fetch: ctx.fetch,
    ...(signal ? { signal } : {}),
  });
  const params: Record<string, string> = {
    grant_type: JWT_BEARER_GRANT_TYPE,
    assertion: jag.assertion,
    resource: b.resource,
  };
  if (scope) params.scope = scope;
  return requestToken(await tokenContext(ctx, b, client, signal), params, jag.scope ?? scope);
}
