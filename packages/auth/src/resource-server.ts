import {
  canonicalResourceUri,
  type ProtectedResourceMetadata,
  protectedResourceMetadataUrls,
} from "./discovery.js";
import { InvalidTokenError } from "./errors.js";
import type { AuthInfo, TokenVerifier } from "./verifiers.js";
import { formatChallenge } from "./www-authenticate.js";

/** Options of {@link createProtectedResource}. */
export interface ProtectedResourceOptions {
  /** The MCP server's canonical URL (its resource identifier), e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** Issuer identifiers of the authorization servers that issue tokens for it (at least one). */
  authorizationServers: string[];
  /** Verifies access tokens; see `createJwtVerifier` and `createIntrospectionVerifier`. */
  verifier: TokenVerifier;
  /** Scopes every request needs (named in 401/403 challenges). Default none. */
  requiredScopes?: string[];
  /** Published in metadata; never list `offline_access` here. */
  scopesSupported?: string[];
  resourceName?: string;
  resourceDocumentation?: string;
  /** Extra metadata members. */
  metadata?: Record<string, unknown>;
  /** Where the metadata is served; default the path-aware well-known URL of `resource`. */
  metadataUrl?: string;
  /** Whether a granted scope satisfies a required one (scope hierarchies); default equality. */
  scopeSatisfies?: (granted: string, required: string) => boolean;
  /** Told about verifier failures that are not an invalid token (JWKS or introspection outage). */
  onError?: (error: unknown) => void;
}

/** A 401/403/400 challenge to send. */
export interface ChallengeOptions {
  status: 400 | 401 | 403;
  /** `invalid_request`, `invalid_token`, `insufficient_scope`; omit for a request with no credentials. */
  error?: string;
  errorDescription?: string;
  /** The scopes to name; default the required scopes. */
  scope?: string[];
}

/** The resource-server helpers {@link createProtectedResource} returns. */
export interface ProtectedResource {
  /** The RFC 9728 metadata document. */
  readonly metadata: ProtectedResourceMetadata;
  /** Where the metadata is served (named as `resource_metadata` in challenges). */
  readonly metadataUrl: string;
  /** Answers a GET (or CORS preflight) of the metadata URL's path; undefined for any other request. */
  serveMetadata(request: Request): Response | undefined;
  /**
   * Checks the request's bearer token: resolves the verified {@link AuthInfo}, or the Response to send
   * instead (401 without or with an invalid token, 403 `insufficient_scope`, 400 for a malformed
   * `Authorization`). This is the hook an HTTP handler calls before reading the body; the AuthInfo goes
   * to `MessageInfo.authInfo`.
   */
  authenticate(request: Request, options?: { requiredScopes?: string[] }): Promise<AuthInfo | Response>;
  /** Builds a challenge response with `WWW-Authenticate: Bearer resource_metadata=…, scope=…, error=…`. */
  challenge(options: ChallengeOptions): Response;
  /**
   * Wraps a Web-standard handler: serves the metadata, authenticates every other request and calls
   * `handler(request, { authInfo })` (also readable later with {@link authInfoOf}).
   */
  wrap(
    handler: (request: Request, context: { authInfo: AuthInfo }) => Response | Promise<Response>,
  ): (request: Request) => Promise<Response>;
}

const requestAuth = new WeakMap<Request, AuthInfo>();

/** The verified AuthInfo a {@link ProtectedResource.wrap} attached to this request, if any. */
export function authInfoOf(request: Request): AuthInfo | undefined {
  return requestAuth.get(request);
}

/**
 * Creates the resource-server side of MCP authorization around a Web-standard `fetch(request)` handler:
 * RFC 9728 protected resource metadata at the well-known URL, `WWW-Authenticate` challenges with
 * `resource_metadata`, `scope` and `error`, token verification through a pluggable verifier, audience
 * binding to this resource (a token issued for another server is refused with 401), and required scopes
 * (403 `insufficient_scope` naming all of them). It composes with `createStreamableHttpHandler` without
 * changing it: wrap the handler, or call {@link ProtectedResource.authenticate} from its auth hook.
 *
 * @see MCP 2026-07-28 basic/authorization §"Authorization Server Location", §"Token Handling";
 *   RFC 9728 §2–§5, RFC 6750 §3
 */
export function createProtectedResource(options: ProtectedResourceOptions): ProtectedResource {
  if (options.authorizationServers.length === 0) {
    throw new TypeError("createProtectedResource needs at least one authorization server");
  }
  const resource = canonicalResourceUri(options.resource);
  const metadataUrl = options.metadataUrl ?? protectedResourceMetadataUrls(resource)[0]!;
  const metadataPath = new URL(metadataUrl).pathname;
  const required = options.requiredScopes ?? [];
  const satisfies = options.scopeSatisfies ?? ((granted, wanted) => granted === wanted);
  const metadata: ProtectedResourceMetadata = {
    ...options.metadata,
    resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ["header"],
    ...(options.scopesSupported ? { scopes_supported: [...options.scopesSupported] } : {}),
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    ...(options.resourceDocumentation ? { resource_documentation: options.resourceDocumentation } : {}),
  };
  const body = JSON.stringify(metadata);

  function challenge(opts: ChallengeOptions): Response {
    const scope = opts.scope ?? required;
    const header = formatChallenge("Bearer", {
      error: opts.error,
      error_description: opts.errorDescription,
      scope: scope.length > 0 ? scope.join(" ") : undefined,
      resource_metadata: metadataUrl,
    });
    const payload = opts.error ? { error: opts.error, error_description: opts.errorDescription } : {};
    return new Response(JSON.stringify(payload), {
      status: opts.status,
      headers: { "content-type": "application/json", "www-authenticate": header },
    });
  }

  async function authenticate(
    request: Request,
    opts: { requiredScopes?: string[] } = {},
  ): Promise<AuthInfo | Response> {
    const needed = opts.requiredScopes ?? required;
    const header = request.headers.get("authorization");
    if (!header) return challenge({ status: 401, scope: needed });
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
    if (!match) {
      if (!/^Bearer\b/i.test(header)) return challenge({ status: 401, scope: needed });
      return challenge({
        status: 400,
        error: "invalid_request",
        errorDescription: "malformed Authorization header",
        scope: needed,
      });
    }
    let info: AuthInfo;
    try {
      info = await options.verifier.verify(match[1]!, { resource, signal: request.signal });
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        return challenge({
          status: 401,
          error: "invalid_token",
          errorDescription: error.message,
          scope: needed,
        });
      }
      options.onError?.(error);
      return new Response(JSON.stringify({ error: "server_error" }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    }
    // Defence in depth: whatever the verifier, a token not bound to this resource is refused.
    if (!info.audience.includes(resource) && !info.audience.includes(options.resource)) {
      return challenge({
        status: 401,
        error: "invalid_token",
        errorDescription: "token audience is not this resource",
        scope: needed,
      });
    }
    const missing = needed.filter((want) => !info.scopes.some((have) => satisfies(have, want)));
    if (missing.length > 0) {
      return challenge({
        status: 403,
        error: "insufficient_scope",
        errorDescription: `missing scope: ${missing.join(" ")}`,
        scope: [...new Set([...info.scopes, ...needed])],
      });
    }
    return info;
  }

  function serveMetadata(request: Request): Response | undefined {
    if (new URL(request.url).pathname !== metadataPath) return undefined;
    const cors = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS" };
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response(null, { status: 405, headers: { allow: "GET, OPTIONS" } });
    }
    return new Response(request.method === "HEAD" ? null : body, {
      status: 200,
      headers: { ...cors, "content-type": "application/json", "cache-control": "max-age=3600" },
    });
  }

  return {
    metadata,
    metadataUrl,
    serveMetadata,
    authenticate,
    challenge,
    wrap(handler) {
      return async (request) => {
        const served = serveMetadata(request);
        if (served) return served;
        const result = await authenticate(request);
        if (result instanceof Response) return result;
        requestAuth.set(request, result);
        return handler(request, { authInfo: result });
      };
    },
  };
}
