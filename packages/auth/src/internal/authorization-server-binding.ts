import { discoverAuthorizationServer, discoverProtectedResource } from "../discovery.js";
import type { Binding, ProviderContext } from "./provider-context.js";

/**
 * Discovers the MCP server's protected resource metadata, picks one of its authorization servers and
 * fetches that server's metadata (once per issuer).
 */
export async function bindAuthorizationServer(
  ctx: ProviderContext,
  resourceMetadataUrl: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Binding> {
  const { metadata: prm } = await discoverProtectedResource(ctx.serverUrl, {
    fetch: ctx.fetch,
    resourceMetadataUrl,
    ...(signal ? { signal } : {}),
  });
  const issuers = prm.authorization_servers.filter((s): s is string => typeof s === "string");
  const issuer = ctx.options.selectAuthorizationServer
    ? ctx.options.selectAuthorizationServer(issuers)
    : issuers[0]!;
  let meta = ctx.metadataCache.get(issuer);
  if (!meta) {
    meta = await discoverAuthorizationServer(issuer, { fetch: ctx.fetch, ...(signal ? { signal } : {}) });
    ctx.metadataCache.set(issuer, meta);
  }
  return { issuer, resource: prm.resource, prm, meta };
}
