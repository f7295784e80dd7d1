import { discoverAuthorizationServer, discoverProtectedResource } from "../discovery.js";
import type { Binding, ProviderContext } from "./provider-context.js";

/**
 * Discovers the MCP server's protected resource metadata, picks one of its authorization servers (the
 * application's choice, else a pre-registered client's issuer when listed, else the first) and fetches
 * that server's metadata (once per issuer), under the discovery rules relative to the MCP server.
 */
export async function bindAuthorizationServer(
  ctx: ProviderContext,
  resourceMetadataUrl: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Binding> {
  const { metadata: prm, url: prmUrl } = await discoverProtectedResource(ctx.serverUrl, {
    fetch: ctx.fetch,
    resourceMetadataUrl,
    ...(signal ? { signal } : {}),
  });
  const issuers = prm.authorization_servers.filter((s): s is string => typeof s === "string");
  const fixed = ctx.options.client;
  // A pre-registered client's own authorization server wins when the resource lists it.
  const preferred = typeof fixed === "object" && issuers.includes(fixed.issuer) ? fixed.issuer : issuers[0]!;
  const issuer = ctx.options.selectAuthorizationServer
    ? ctx.options.selectAuthorizationServer(issuers)
    : preferred;
  let meta = ctx.metadataCache.get(issuer);
  if (!meta) {
    meta = await discoverAuthorizationServer(issuer, {
      fetch: ctx.fetch,
      serverUrl: ctx.serverUrl,
      ...(signal ? { signal } : {}),
    });
    ctx.metadataCache.set(issuer, meta);
  }
  return { issuer, prmUrl, resource: prm.resource, prm, meta };
}
