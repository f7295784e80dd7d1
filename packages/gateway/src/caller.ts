import { timingSafeEqual } from "node:crypto";
import { type Identity, selectProfile } from "./rules.js";
import { sha256Hex } from "./settings.js";
import type { GatewaySettings } from "./types.js";

/** Who a request is from and which profile's rules apply: what handlers see as `ctx.authInfo`. */
export interface Caller {
  readonly identity: Identity;
  /** The profile's name (`default` when the config has no profiles). */
  readonly profile: string;
}

/**
 * Verifies OAuth bearer tokens: `createProtectedResource(…)` of `@mcpkit/auth` fits (its `authenticate`
 * answers a verified `AuthInfo` or a 401/403 `Response`; `serveMetadata` serves the protected resource
 * metadata document).
 */
export interface TokenVerifier {
  authenticate(request: Request): Promise<unknown>;
  serveMetadata?(request: Request): Response | undefined;
}

/** The name of the profile used when the config has none: it sees everything. */
export const DEFAULT_PROFILE = "default";

const ANONYMOUS: Identity = { id: "anonymous", scopes: [], claims: {} };

/**
 * Establishes the caller of an HTTP request: an API key (`X-Api-Key`, or `Authorization: Bearer` holding
 * one) names its identity; any other bearer token goes to the token verifier (its `sub`, scopes and
 * claims); no credentials is the anonymous identity, allowed only with `gateway.anonymousProfile` or when
 * the gateway has no credentials configured at all. Then the first profile matching the identity.
 * Returns the caller, or the 401/403 `Response` to send.
 */
export async function identifyCaller(
  request: Request,
  settings: GatewaySettings,
  verifier: TokenVerifier | undefined,
): Promise<Caller | Response> {
  const apiKey = request.headers.get("x-api-key");
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim();
  let identity: Identity | undefined;
  const presented = apiKey ?? bearer;
  if (presented !== undefined && settings.apiKeys.length > 0) {
    const hash = Buffer.from(sha256Hex(presented), "hex");
    const found = settings.apiKeys.find((k) => timingSafeEqual(Buffer.from(k.sha256, "hex"), hash));
    if (found) identity = { id: found.identity, scopes: [], claims: {} };
    else if (apiKey !== undefined || !verifier)
      return refuse(401, "invalid_token", "the API key is not valid");
  }
  if (identity === undefined && bearer !== undefined && verifier) {
    const verified = await verifier.authenticate(request);
    if (verified instanceof Response) return verified;
    const info = verified as {
      subject?: string;
      clientId?: string;
      scopes?: string[];
      claims?: Record<string, unknown>;
    };
    identity = {
      id: info.subject ?? info.clientId ?? "token",
      scopes: info.scopes ?? [],
      claims: info.claims ?? {},
    };
  }
  if (identity === undefined) {
    const open = settings.apiKeys.length === 0 && !verifier;
    if (settings.anonymousProfile !== undefined)
      return { identity: ANONYMOUS, profile: settings.anonymousProfile };
    if (!open) {
      // The verifier's own challenge names its authorization server (the protected resource metadata).
      const challenge =
        verifier && presented === undefined ? await verifier.authenticate(request) : undefined;
      return challenge instanceof Response
        ? challenge
        : refuse(401, "invalid_request", "credentials are required (X-Api-Key or Authorization: Bearer)");
    }
    identity = ANONYMOUS;
  }
  if (settings.profiles.length === 0) return { identity, profile: DEFAULT_PROFILE };
  const profile = selectProfile(settings.profiles, identity);
  if (!profile) return refuse(403, "insufficient_scope", `no profile of the gateway admits "${identity.id}"`);
  return { identity, profile: profile.name };
}

function refuse(status: number, code: string, description: string): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: description } }),
    {
      status,
      headers: {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="${code}", error_description="${description}"`,
      },
    },
  );
}
