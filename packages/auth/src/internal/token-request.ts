import { createClientAssertion } from "../client-assertion.js";
import type { AuthorizationServerMetadata, FetchLike } from "../discovery.js";
import { createDpopProof, type DpopKey } from "../dpop.js";
import { AuthError } from "../errors.js";
import type { ClientRegistration, TokenSet } from "../token-store.js";
import type { WebCryptoKey } from "../web-crypto-types.js";
import { formEncode, isRecord } from "./encoding.js";
import type { JwsAlgorithm } from "./jose.js";
import { checkCredentialEndpoint, isRedirect } from "./url-rules.js";

/** How the client authenticates at the token endpoint: its registration and, for private_key_jwt, its key. */
export interface ClientAuth {
  registration: ClientRegistration;
  privateKey?: WebCryptoKey | string;
  signingAlgorithm?: JwsAlgorithm;
}

/** Picks the token endpoint auth method for a registration the server did not tag with one. */
export function chooseAuthMethod(meta: AuthorizationServerMetadata, client: ClientAuth): string {
  if (client.registration.token_endpoint_auth_method) return client.registration.token_endpoint_auth_method;
  // RFC 8414 §2: absent means client_secret_basic.
  const supported = meta.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (client.privateKey !== undefined) return "private_key_jwt";
  if (client.registration.client_secret !== undefined) {
    if (supported.includes("client_secret_basic")) return "client_secret_basic";
    if (supported.includes("client_secret_post")) return "client_secret_post";
    return "client_secret_basic";
  }
  return "none";
}

/** What a token request needs: fetch, the server's metadata, client auth, the DPoP key and its nonces. */
export interface TokenRequestContext {
  fetch: FetchLike;
  meta: AuthorizationServerMetadata;
  client: ClientAuth | undefined;
  /** The client id to name in the body when there is no registration (jwt-bearer without a client). */
  dpop: DpopKey | undefined;
  nonces: Map<string, string>;
  signal: AbortSignal | undefined;
}

/**
 * POSTs a token request with client authentication and, when a DPoP key is given, a proof (retrying once
 * with the server's nonce on `use_dpop_nonce`). Returns the token set. The endpoint must be https (http
 * only to loopback); a redirect is not followed, so the request's secret or code goes nowhere else.
 */
export async function requestToken(
  ctx: TokenRequestContext,
  params: Record<string, string>,
  requestedScope: string | undefined,
): Promise<TokenSet> {
  return (await requestTokenResponse(ctx, params, requestedScope)).tokens;
}

/** {@link requestToken}, also handing back the whole JSON body (RFC 8693 puts `issued_token_type` there). */
export async function requestTokenResponse(
  ctx: TokenRequestContext,
  params: Record<string, string>,
  requestedScope: string | undefined,
): Promise<{ tokens: TokenSet; body: Record<string, unknown> }> {
  const endpoint = ctx.meta.token_endpoint;
  if (!endpoint) {
    throw new AuthError(
      "invalid_configuration",
      `authorization server ${ctx.meta.issuer} has no token_endpoint`,
    );
  }
  checkCredentialEndpoint(endpoint, "token endpoint");
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (ctx.client) {
    const reg = ctx.client.registration;
    const method = chooseAuthMethod(ctx.meta, ctx.client);
    if (method === "client_secret_basic") {
      if (reg.client_secret === undefined) {
        throw new AuthError("invalid_configuration", "client_secret_basic needs a client secret");
      }
      headers.authorization = `Basic ${btoa(`${formEncode(reg.client_id)}:${formEncode(reg.client_secret)}`)}`;
    } else if (method === "client_secret_post") {
      if (reg.client_secret === undefined) {
        throw new AuthError("invalid_configuration", "client_secret_post needs a client secret");
      }
      body.set("client_id", reg.client_id);
      body.set("client_secret", reg.client_secret);
    } else if (method === "private_key_jwt") {
      if (ctx.client.privateKey === undefined) {
        throw new AuthError("invalid_configuration", "private_key_jwt needs a private key");
      }
      body.set("client_id", reg.client_id);
      body.set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      body.set(
        "client_assertion",
        await createClientAssertion({
          clientId: reg.client_id,
          audience: ctx.meta.issuer,
          privateKey: ctx.client.privateKey,
          ...(ctx.client.signingAlgorithm ? { alg: ctx.client.signingAlgorithm } : {}),
        }),
      );
    } else {
      body.set("client_id", reg.client_id);
    }
  }
  const origin = new URL(endpoint).origin;
  for (let attempt = 0; ; attempt++) {
    if (ctx.dpop) {
      const nonce = ctx.nonces.get(origin);
      headers.dpop = await createDpopProof(ctx.dpop, {
        htm: "POST",
        htu: endpoint,
        ...(nonce !== undefined ? { nonce } : {}),
      });
    }
    let response: Response;
    try {
      response = await ctx.fetch(endpoint, {
        method: "POST",
        headers,
        body: body.toString(),
        redirect: "manual",
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (error) {
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      throw new AuthError("token_request_failed", `token request to ${endpoint} failed`, { cause: error });
    }
    if (isRedirect(response)) {
      await response.body?.cancel();
      throw new AuthError(
        "unsafe_url",
        `refused the redirect of token endpoint ${endpoint} (${response.status}): token requests follow no redirects`,
        { status: response.status },
      );
    }
    const newNonce = response.headers.get("dpop-nonce");
    if (newNonce) ctx.nonces.set(origin, newNonce);
    const json: unknown = await response.json().catch(() => undefined);
    if (response.ok && isRecord(json) && typeof json.access_token === "string") {
      const tokens: TokenSet = {
        access_token: json.access_token,
        token_type: typeof json.token_type === "string" ? json.token_type : "Bearer",
      };
      if (typeof json.refresh_token === "string") tokens.refresh_token = json.refresh_token;
      const scope = typeof json.scope === "string" ? json.scope : requestedScope;
      if (scope !== undefined) tokens.scope = scope;
      if (typeof json.expires_in === "number" && Number.isFinite(json.expires_in)) {
        tokens.expires_at = Date.now() + json.expires_in * 1000;
      }
      return { tokens, body: json };
    }
    const error = isRecord(json) && typeof json.error === "string" ? json.error : undefined;
    const description =
      isRecord(json) && typeof json.error_description === "string" ? json.error_description : undefined;
    // RFC 9449 §8: the server wants a nonce in the proof; one retry with the nonce it just gave.
    if (ctx.dpop && error === "use_dpop_nonce" && newNonce && attempt === 0) continue;
    throw new AuthError(
      "token_request_failed",
      `token endpoint ${endpoint} refused the ${params.grant_type} request: ${response.status}${error ? ` ${error}` : ""}${description ? ` (${description})` : ""}`,
      {
        status: response.status,
        ...(error !== undefined ? { oauthError: error } : {}),
        ...(description !== undefined ? { oauthErrorDescription: description } : {}),
      },
    );
  }
}
