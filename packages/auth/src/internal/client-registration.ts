import { AuthError } from "../errors.js";
import { clientAuthFor, staticClientFor, staticRegistration } from "../static-client.js";
import type { ClientRegistration } from "../token-store.js";
import { isRecord } from "./encoding.js";
import { type Binding, credentials, type ProviderContext } from "./provider-context.js";
import type { ClientAuth } from "./token-request.js";
import { checkCredentialEndpoint } from "./url-rules.js";

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
 * The client to use at the binding's authorization server, in the spec's order: a pre-registered client
 * (only at its own issuer), the stored registration, the Client ID Metadata Document URL where the server
 * supports it, else Dynamic Client Registration. A new registration is stored under the issuer.
 *
 * @throws {AuthError} `client_issuer_mismatch` when the pre-registered client belongs to another issuer;
 *   `registration_unavailable` when nothing applies; `registration_failed`.
 */
export async function ensureClient(
  ctx: ProviderContext,
  b: Binding,
  signal: AbortSignal | undefined,
): Promise<ClientAuth> {
  const known = await knownClient(ctx, b);
  if (known) return known;
  let client: ClientRegistration;
  if (ctx.options.clientMetadataUrl && b.meta.client_id_metadata_document_supported === true) {
    client = { client_id: ctx.options.clientMetadataUrl, token_endpoint_auth_method: "none", source: "cimd" };
  } else if (b.meta.registration_endpoint) {
    client = await register(ctx, b, signal);
  } else {
    throw new AuthError(
      "registration_unavailable",
      `no client id for ${b.issuer}: no pre-registered client, no Client ID Metadata Document support, no registration endpoint`,
    );
  }
  await ctx.store.set(b.issuer, { ...(await credentials(ctx, b.issuer)), client });
  return { registration: client };
}

/**
 * The client already known for the binding's issuer, without registering: the pre-registered one (always
 * from the options, never a stored copy, so a stored static client of another issuer is never used),
 * else a stored CIMD or dynamic registration.
 *
 * @throws {AuthError} `client_issuer_mismatch` when the pre-registered client belongs to another issuer.
 */
export async function knownClient(ctx: ProviderContext, b: Binding): Promise<ClientAuth | undefined> {
  const fixed = staticClientFor(ctx.options.client, b);
  const creds = await credentials(ctx, b.issuer);
  if (fixed) {
    const registration = staticRegistration(fixed);
    if (!creds.client) await ctx.store.set(b.issuer, { ...creds, client: registration });
    return clientAuthFor(fixed, registration);
  }
  return creds.client && creds.client.source !== "static" ? { registration: creds.client } : undefined;
}

/** RFC 7591 Dynamic Client Registration at the binding's registration endpoint. */
async function register(
  ctx: ProviderContext,
  b: Binding,
  signal: AbortSignal | undefined,
): Promise<ClientRegistration> {
  const { options } = ctx;
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
  checkCredentialEndpoint(b.meta.registration_endpoint!, "registration endpoint");
  let response: Response;
  try {
    response = await ctx.fetch(b.meta.registration_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      // A redirect would carry the registration (and bring back a secret) from somewhere else.
      redirect: "manual",
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
