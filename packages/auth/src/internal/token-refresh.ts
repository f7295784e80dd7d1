import { AuthError } from "../errors.js";
import type { TokenSet } from "../token-store.js";
import { knownClient } from "./client-registration.js";
import { type Binding, type ProviderContext, saveTokens, tokenContext } from "./provider-context.js";
import { requestToken } from "./token-request.js";

/**
 * Trades the refresh token for fresh tokens and stores them. Resolves false without a refresh token, and
 * (forgetting the tokens) when the authorization server refused it; a failure to reach the server
 * rejects and keeps the credentials.
 */
export async function refreshTokens(
  ctx: ProviderContext,
  b: Binding,
  tokens: TokenSet,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (!tokens.refresh_token) return false;
  const client = await knownClient(ctx, b);
  try {
    const fresh = await requestToken(
      await tokenContext(ctx, b, client, signal),
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token, resource: b.resource },
      tokens.scope,
    );
    // RFC 6749 §6: the server may keep the old refresh token.
    if (!fresh.refresh_token) fresh.refresh_token = tokens.refresh_token;
    await saveTokens(ctx, b, fresh);
    return true;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // The server refused the refresh token: forget it and authorize anew. Anything else (the server
    // could not be reached) is not a reason to throw credentials away.
    if (error instanceof AuthError && error.status !== undefined) {
      await saveTokens(ctx, b, undefined);
      return false;
    }
    throw error;
  }
}
