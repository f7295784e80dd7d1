import type { FetchLike } from "./discovery.js";
import { InvalidTokenError } from "./errors.js";
import { formEncode, isRecord } from "./internal/encoding.js";
import {
  decodeJwt,
  importPublicJwk,
  isSupportedAlgorithm,
  type JwsAlgorithm,
  verifySignature,
} from "./internal/jose.js";
import type { Jwk } from "./web-crypto-types.js";

/**
 * What a resource server knows about the caller once a token verified. It deliberately does not carry
 * the access token itself: an MCP server must never pass the client's token on to upstream APIs.
 */
export interface AuthInfo {
  /** `sub`: the user or workload the token was issued for. */
  subject?: string;
  /** `client_id` (or `azp`): the OAuth client that obtained the token. */
  clientId?: string;
  /** Granted scopes. */
  scopes: string[];
  /** `aud`, always as a list. */
  audience: string[];
  /** `iss`. */
  issuer?: string;
  /** `exp`, epoch seconds. */
  expiresAt?: number;
  /** All verified claims (JWT payload or introspection response). */
  claims: Record<string, unknown>;
}

/** What a verifier is told about the request it verifies for. */
export interface VerifyContext {
  /** The protected resource's identifier; tokens must name it in `aud` (RFC 8707). */
  resource: string;
  signal?: AbortSignal;
}

/**
 * Checks an access token and returns its claims. Implementations throw {@link InvalidTokenError} for a
 * token that is malformed, expired, not yet valid, from another issuer or for another audience; any other
 * throw is an outage (the resource server answers 500, not 401).
 */
export interface TokenVerifier {
  verify(token: string, context: VerifyContext): Promise<AuthInfo>;
}

function toList(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === "string") return claims.scope.split(/\s+/).filter(Boolean);
  if (typeof claims.scp === "string") return claims.scp.split(/\s+/).filter(Boolean);
  return toList(claims.scp);
}

function authInfoFrom(claims: Record<string, unknown>): AuthInfo {
  const info: AuthInfo = { scopes: scopesOf(claims), audience: toList(claims.aud), claims };
  if (typeof claims.sub === "string") info.subject = claims.sub;
  const clientId = typeof claims.client_id === "string" ? claims.client_id : claims.azp;
  if (typeof clientId === "string") info.clientId = clientId;
  if (typeof claims.iss === "string") info.issuer = claims.iss;
  if (typeof claims.exp === "number") info.expiresAt = claims.exp;
  return info;
}

function checkTimes(claims: Record<string, unknown>, toleranceSeconds: number, requireExp: boolean): void {
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp === "number") {
    if (claims.exp + toleranceSeconds <= now) throw new InvalidTokenError("token expired");
  } else if (requireExp) {
    throw new InvalidTokenError("token has no exp");
  }
  if (typeof claims.nbf === "number" && claims.nbf - toleranceSeconds > now) {
    throw new InvalidTokenError("token not yet valid");
  }
}

function checkAudience(claims: Record<string, unknown>, expected: string[]): void {
  const aud = toList(claims.aud);
  if (!aud.some((a) => expected.includes(a))) {
    throw new InvalidTokenError(`token audience ${aud.join(", ") || "(none)"} is not this resource`);
  }
}

/** Options of {@link createJwtVerifier}. */
export interface JwtVerifierOptions {
  /** Accepted `iss` value(s), compared exactly. */
  issuer: string | string[];
  /** Accepted `aud` value(s); default the resource identifier of the request. */
  audience?: string | string[];
  /** A fixed JWK Set. */
  jwks?: { keys: Jwk[] };
  /** Where to fetch the JWK Set (refetched, at most every 30 s, when a `kid` is unknown). */
  jwksUri?: string;
  /** Accepted algorithms; default RS256 and ES256. `none` and HMAC are never accepted. */
  algorithms?: JwsAlgorithm[];
  /** Clock skew tolerated on `exp`/`nbf`, seconds. Default 30. */
  clockToleranceSeconds?: number;
  fetch?: FetchLike;
}

/**
 * A {@link TokenVerifier} for JWT access tokens (RFC 9068 style) signed by the authorization server,
 * verified with WebCrypto against its JWK Set: signature, `alg` allow-list, `iss`, `aud` (this resource),
 * `exp` (required) and `nbf`.
 *
 * @throws {TypeError} at creation when neither `jwks` nor `jwksUri` is given.
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  if (!options.jwks && !options.jwksUri) throw new TypeError("createJwtVerifier needs `jwks` or `jwksUri`");
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const algorithms = options.algorithms ?? ["RS256", "ES256"];
  const issuers = toList(options.issuer);
  const tolerance = options.clockToleranceSeconds ?? 30;
  let keys: Jwk[] = options.jwks?.keys ?? [];
  let loaded = false;
  let refetchedAt = Number.NEGATIVE_INFINITY;

  async function loadKeys(force: boolean, signal: AbortSignal | undefined): Promise<void> {
    if (!options.jwksUri) return;
    if (!force && loaded) return;
    // An unknown kid may mean a key rotation: refetch, but at most every 30 s so forged kids cannot
    // turn every request into a JWKS fetch.
    if (force) {
      if (Date.now() - refetchedAt < 30_000) return;
      refetchedAt = Date.now();
    }
    const response = await fetchFn(options.jwksUri, {
      headers: { accept: "application/json" },
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw new Error(`JWKS fetch from ${options.jwksUri} answered ${response.status}`);
    const body: unknown = await response.json();
    if (!isRecord(body) || !Array.isArray(body.keys))
      throw new Error(`JWKS at ${options.jwksUri} has no keys`);
    keys = body.keys as Jwk[];
    loaded = true;
  }

  function candidates(kid: unknown, alg: JwsAlgorithm): Jwk[] {
    const kty = alg.startsWith("ES") ? "EC" : "RSA";
    return keys.filter((entry) => {
      if (entry.kty !== kty) return false;
      if (entry.use !== undefined && entry.use !== "sig") return false;
      if (entry.alg !== undefined && entry.alg !== alg) return false;
      return kid === undefined || entry.kid === kid;
    });
  }

  return {
    async verify(token, context) {
      let decoded: ReturnType<typeof decodeJwt>;
      try {
        decoded = decodeJwt(token);
      } catch {
        throw new InvalidTokenError("token is not a JWT");
      }
      const alg = decoded.header.alg;
      if (!isSupportedAlgorithm(alg) || !algorithms.includes(alg)) {
        throw new InvalidTokenError(`token algorithm ${String(alg)} is not accepted`);
      }
      await loadKeys(false, context.signal);
      let matching = candidates(decoded.header.kid, alg);
      if (matching.length === 0) {
        await loadKeys(true, context.signal);
        matching = candidates(decoded.header.kid, alg);
      }
      let valid = false;
      for (const jwk of matching) {
        try {
          if (await verifySignature(decoded, alg, await importPublicJwk(jwk, alg))) {
            valid = true;
            break;
          }
        } catch {
          // A key that does not import for this algorithm is simply not the signer.
        }
      }
      if (!valid) throw new InvalidTokenError("token signature does not verify");
      const claims = decoded.payload;
      if (typeof claims.iss !== "string" || !issuers.includes(claims.iss)) {
        throw new InvalidTokenError(`token issuer ${String(claims.iss)} is not accepted`);
      }
      checkTimes(claims, tolerance, true);
      checkAudience(claims, options.audience ? toList(options.audience) : [context.resource]);
      return authInfoFrom(claims);
    },
  };
}

/** Options of {@link createIntrospectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The RFC 7662 introspection endpoint. */
  endpoint: string;
  /** The resource server's credentials at the authorization server (sent with `client_secret_basic`). */
  clientId?: string;
  clientSecret?: string;
  /** Accepted `aud` value(s); default the resource identifier of the request. */
  audience?: string | string[];
  /** Accepted `iss` value(s) when the response names one. */
  issuer?: string | string[];
  /** Refuse responses without `aud`. Default true (MCP requires audience validation). */
  requireAudience?: boolean;
  clockToleranceSeconds?: number;
  fetch?: FetchLike;
}

/**
 * A {@link TokenVerifier} that asks the authorization server (RFC 7662 token introspection): the token
 * must be `active`, unexpired, and its `aud` must name this resource.
 */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const tolerance = options.clockToleranceSeconds ?? 30;
  return {
    async verify(token, context) {
      const headers: Record<string, string> = {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      };
      const body = new URLSearchParams({ token, token_type_hint: "access_token" });
      if (options.clientId !== undefined && options.clientSecret !== undefined) {
        headers.authorization = `Basic ${btoa(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`)}`;
      } else if (options.clientId !== undefined) {
        body.set("client_id", options.clientId);
      }
      const response = await fetchFn(options.endpoint, {
        method: "POST",
        headers,
        body: body.toString(),
        ...(context.signal ? { signal: context.signal } : {}),
      });
      if (!response.ok) throw new Error(`introspection at ${options.endpoint} answered ${response.status}`);
      const claims: unknown = await response.json();
      if (!isRecord(claims)) throw new Error(`introspection at ${options.endpoint} returned no object`);
      if (claims.active !== true) throw new InvalidTokenError("token is not active");
      checkTimes(claims, tolerance, false);
      if (options.issuer !== undefined && claims.iss !== undefined) {
        if (typeof claims.iss !== "string" || !toList(options.issuer).includes(claims.iss)) {
          throw new InvalidTokenError(`token issuer ${String(claims.iss)} is not accepted`);
        }
      }
      if (claims.aud !== undefined || options.requireAudience !== false) {
        checkAudience(claims, options.audience ? toList(options.audience) : [context.resource]);
      }
      return authInfoFrom(claims);
    },
  };
}
