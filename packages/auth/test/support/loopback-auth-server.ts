// A configurable OAuth authorization server + MCP resource server on 127.0.0.1:0 (real HTTP), for the
// provider tests. Everything it receives is recorded so tests can assert order and content.
import { createHash, createPublicKey, verify as verifySignature } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  form: URLSearchParams;
}

export interface TokenRequestInfo {
  form: URLSearchParams;
  authorization: string | undefined;
  dpop: string | undefined;
}

export interface AuthServerConfig {
  /** Path prefix of the issuer (e.g. `/tenant1`); default none. */
  issuerPath?: string;
  /** Where AS metadata is served; default `/.well-known/oauth-authorization-server` + issuerPath. */
  asMetadataPaths?: string[];
  /** Override the metadata `issuer`. */
  metadataIssuer?: string;
  /** Override / drop metadata members (undefined value deletes). */
  metadata?: Record<string, unknown>;
  /** Where PRM is served; default the path-aware URL of /mcp. */
  prmPaths?: string[];
  /** Override the PRM `resource`. */
  prmResource?: string;
  /** PRM `scopes_supported`. */
  prmScopes?: string[];
  /** Put `resource_metadata` in the 401 challenge (the first PRM path). Default true. */
  challengeWithMetadata?: boolean;
  /** Scope named in the 401 challenge. */
  challengeScope?: string;
  /** What the authorize endpoint puts as `iss`: the issuer (default), a value, or nothing. */
  issInRedirect?: "correct" | "omit" | string;
  /** Registration response override. */
  register?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Token endpoint override: return a JSON body and status. */
  token?: (info: TokenRequestInfo) => {
    status?: number;
    body: Record<string, unknown>;
    headers?: Record<string, string>;
  };
  /** Resource check: status for a request with this Authorization header (default: 200 if a token we issued). */
  resource?: (
    authorization: string | undefined,
    body: string,
    headers: IncomingMessage["headers"],
  ) => { status: number; headers?: Record<string, string> } | undefined;
  /** Another authorization server the PRM may name instead (set at runtime). */
  authorizationServers?: () => string[];
  /**
   * The origin the server names itself by in its documents and challenges (default its real
   * `http://127.0.0.1:<port>`), for tests that reach it under a public-looking name through {@link routedFetch}.
   */
  origin?: string;
}

export interface LoopbackAuthServer {
  /** The origin it names itself by (`config.origin`, else where it listens). */
  url: string;
  /** Where it really listens: `http://127.0.0.1:<port>`. */
  listenUrl: string;
  issuer: string;
  mcpUrl: string;
  requests: Recorded[];
  issued: Set<string>;
  config: AuthServerConfig;
  paths(): string[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

export async function startLoopbackAuthServer(config: AuthServerConfig = {}): Promise<LoopbackAuthServer> {
  const requests: Recorded[] = [];
  const issued = new Set<string>();
  let base = "";
  let counter = 0;
  const challenges = new Map<string, string>();
  const state: LoopbackAuthServer = {
    url: "",
    listenUrl: "",
    issuer: "",
    mcpUrl: "",
    requests,
    issued,
    config,
    paths: () => requests.map((r) => r.path),
    close: async () => {},
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", base);
    const form = new URLSearchParams(req.headers["content-type"]?.includes("urlencoded") ? body : "");
    requests.push({
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      form,
    });
    const issuerPath = config.issuerPath ?? "";
    const issuer = `${base}${issuerPath}`;
    const prmPaths = config.prmPaths ?? ["/.well-known/oauth-protected-resource/mcp"];
    const asPaths = config.asMetadataPaths ?? [`/.well-known/oauth-authorization-server${issuerPath}`];

    if (req.method === "GET" && prmPaths.includes(url.pathname)) {
      const prm: Record<string, unknown> = {
        resource: config.prmResource ?? `${base}/mcp`,
        authorization_servers: config.authorizationServers?.() ?? [issuer],
      };
      if (config.prmScopes) prm.scopes_supported = config.prmScopes;
      return send(res, 200, prm);
    }
    if (req.method === "GET" && asPaths.includes(url.pathname)) {
      const meta: Record<string, unknown> = {
        issuer: config.metadataIssuer ?? issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        authorization_response_iss_parameter_supported: true,
      };
      for (const [k, v] of Object.entries(config.metadata ?? {})) {
        if (v === undefined) delete meta[k];
        else meta[k] = v;
      }
      return send(res, 200, meta);
    }
    if (req.method === "GET" && url.pathname === `${issuerPath}/authorize`) {
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "http://127.0.0.1/cb");
      const code = `code-${++counter}`;
      challenges.set(code, url.searchParams.get("code_challenge") ?? "");
      redirect.searchParams.set("code", code);
      const st = url.searchParams.get("state");
      if (st !== null) redirect.searchParams.set("state", st);
      const iss = config.issInRedirect ?? "correct";
      if (iss === "correct") redirect.searchParams.set("iss", issuer);
      else if (iss !== "omit") redirect.searchParams.set("iss", iss);
      res.writeHead(302, { location: redirect.href });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === `${issuerPath}/register`) {
      const json = JSON.parse(body) as Record<string, unknown>;
      const out = config.register?.(json) ?? {
        client_id: `dyn-${++counter}`,
        token_endpoint_auth_method: "none",
      };
      return send(res, 201, out);
    }
    if (req.method === "POST" && url.pathname === `${issuerPath}/token`) {
      const info: TokenRequestInfo = {
        form,
        authorization: req.headers.authorization,
        dpop: req.headers.dpop as string | undefined,
      };
      if (config.token) {
        const out = config.token(info);
        if (typeof out.body.access_token === "string") issued.add(out.body.access_token);
        return send(res, out.status ?? 200, out.body, out.headers);
      }
      if (form.get("grant_type") === "authorization_code") {
        const expected = challenges.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const actual = createHash("sha256").update(verifier).digest("base64url");
        if (!expected || expected !== actual) return send(res, 400, { error: "invalid_grant" });
      }
      const token = `tok-${++counter}`;
      issued.add(token);
      const out: Record<string, unknown> = { access_token: token, token_type: "Bearer", expires_in: 3600 };
      if (form.get("scope")) out.scope = form.get("scope");
      return send(res, 200, out);
    }
    if (url.pathname === "/mcp") {
      const custom = config.resource?.(req.headers.authorization, body, req.headers);
      if (custom) return send(res, custom.status, {}, custom.headers);
      const auth = req.headers.authorization;
      const token = auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
      if (token && issued.has(token)) return send(res, 200, { ok: true });
      const params = [
        config.challengeWithMetadata === false ? undefined : `resource_metadata="${base}${prmPaths[0]}"`,
        config.challengeScope ? `scope="${config.challengeScope}"` : undefined,
        token ? `error="invalid_token"` : undefined,
      ].filter(Boolean);
      return send(
        res,
        401,
        { error: "unauthorized" },
        {
          "www-authenticate": `Bearer${params.length ? ` ${params.join(", ")}` : ""}`,
        },
      );
    }
    return send(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.listenUrl = `http://127.0.0.1:${port}`;
  base = config.origin ?? state.listenUrl;
  state.url = base;
  state.issuer = `${base}${config.issuerPath ?? ""}`;
  state.mcpUrl = `${base}/mcp`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/**
 * A fetch that reaches each named origin's loopback server (the URL rewritten to where it listens) and
 * refuses every other URL without any traffic, recording every URL it was asked for.
 */
export function routedFetch(routes: LoopbackAuthServer[]): {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  asked: string[];
} {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      asked.push(url.href);
      const route = routes.find((server) => new URL(server.url).origin === url.origin);
      if (!route) throw new TypeError(`no route to ${url.origin} in this test`);
      return fetch(new URL(`${url.pathname}${url.search}`, route.listenUrl), init);
    },
  };
}

/** The redirect step for tests: GET the authorization URL without following, return Location. */
export async function headlessRedirect(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location) throw new Error(`no redirect from ${url.href} (${response.status})`);
  return location;
}

/** Verifies a compact ES256/RS256 JWS with node:crypto against a public JWK; returns the payload. */
export function verifyJwtWithJwk(token: string, jwk: JsonWebKey): Record<string, unknown> | undefined {
  const [h, p, s] = token.split(".") as [string, string, string];
  const header = JSON.parse(Buffer.from(h, "base64url").toString()) as { alg: string };
  const key = createPublicKey({ key: jwk as any, format: "jwk" });
  const ok = verifySignature(
    "sha256",
    Buffer.from(`${h}.${p}`),
    header.alg.startsWith("ES") ? { key, dsaEncoding: "ieee-p1363" } : key,
    Buffer.from(s, "base64url"),
  );
  return ok ? (JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>) : undefined;
}
