// Enterprise-Managed Authorization over real HTTP: one loopback server is the MCP server and its
// authorization server, a second one is the enterprise IdP (token exchange only).
import { afterEach, describe, expect, it } from "vitest";
import { type AuthError, createOAuthProvider, requestIdJag, withAuth } from "../src/index.js";
import {
  type AuthServerConfig,
  type LoopbackAuthServer,
  startLoopbackAuthServer,
} from "./support/loopback-auth-server.js";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const servers: LoopbackAuthServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(config: AuthServerConfig): Promise<LoopbackAuthServer> {
  const server = await startLoopbackAuthServer(config);
  servers.push(server);
  return server;
}

/** An IdP whose token endpoint answers every exchange with `answer` (an ID-JAG by default). */
function idp(answer?: AuthServerConfig["token"]): Promise<LoopbackAuthServer> {
  return start({
    token:
      answer ??
      (({ form }) => ({
        body: {
          access_token: `jag-for-${form.get("audience")}`,
          issued_token_type: ID_JAG,
          token_type: "N_A",
          expires_in: 300,
        },
      })),
  });
}

const only = (server: LoopbackAuthServer, path: string) => server.requests.filter((r) => r.path === path);

describe("enterprise_managed grant", () => {
  it("exchanges the ID Token for an ID-JAG at the IdP, then presents it as a JWT bearer grant", async () => {
    const enterprise = await idp();
    const mcp = await start({
      metadata: {
        grant_types_supported: [JWT_BEARER],
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
      },
      prmScopes: ["notes:read"],
    });
    const provider = createOAuthProvider({
      serverUrl: mcp.mcpUrl,
      grant: {
        type: "enterprise_managed",
        identityAssertion: async () => "id.token.jwt",
        idp: { issuer: enterprise.issuer, client: { clientId: "idp-client" } },
      },
      client: {
        issuer: mcp.issuer,
        clientId: "mcp-client",
        clientSecret: "s3cret",
        tokenEndpointAuthMethod: "client_secret_basic",
      },
    });
    const response = await withAuth(provider)(mcp.mcpUrl, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);

    const exchange = only(enterprise, "/token");
    expect(exchange).toHaveLength(1);
    expect(Object.fromEntries(exchange[0]!.form)).toEqual({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: ID_JAG,
      audience: mcp.issuer,
      resource: mcp.mcpUrl,
      scope: "notes:read",
      subject_token: "id.token.jwt",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      client_id: "idp-client",
    });

    const grant = only(mcp, "/token");
    expect(grant).toHaveLength(1);
    expect(grant[0]!.form.get("grant_type")).toBe(JWT_BEARER);
    expect(grant[0]!.form.get("assertion")).toBe(`jag-for-${mcp.issuer}`);
    expect(grant[0]!.form.get("resource")).toBe(mcp.mcpUrl);
    expect(grant[0]!.headers.authorization).toBe(`Basic ${btoa("mcp-client:s3cret")}`);
    // No browser step and no registration.
    expect(only(mcp, "/authorize")).toHaveLength(0);
    expect(only(mcp, "/register")).toHaveLength(0);
  });

  it("refuses before the exchange when the authorization server does not take JWT bearer grants", async () => {
    const enterprise = await idp();
    const mcp = await start({ metadata: { grant_types_supported: ["authorization_code"] } });
    const provider = createOAuthProvider({
      serverUrl: mcp.mcpUrl,
      grant: {
        type: "enterprise_managed",
        identityAssertion: "id",
        idp: { tokenEndpoint: `${enterprise.url}/token` },
      },
      client: { issuer: mcp.issuer, clientId: "c", clientSecret: "s" },
    });
    const error = (await provider.authorize().catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe("grant_not_supported");
    expect(only(enterprise, "/token")).toHaveLength(0);
  });

  it("needs a client registered at the MCP server's authorization server", async () => {
    const enterprise = await idp();
    const mcp = await start({});
    const provider = createOAuthProvider({
      serverUrl: mcp.mcpUrl,
      grant: { type: "enterprise_managed", identityAssertion: "id", idp: { issuer: enterprise.issuer } },
    });
    const error = (await provider.authorize().catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe("invalid_configuration");
    expect(only(enterprise, "/token")).toHaveLength(0);
  });

  it("reports the IdP's refusal and never asks the authorization server", async () => {
    const enterprise = await idp(() => ({
      status: 400,
      body: { error: "invalid_grant", error_description: "Audience validation failed" },
    }));
    const mcp = await start({});
    const provider = createOAuthProvider({
      serverUrl: mcp.mcpUrl,
      grant: { type: "enterprise_managed", identityAssertion: "id", idp: { issuer: enterprise.issuer } },
      client: { issuer: mcp.issuer, clientId: "c", clientSecret: "s" },
    });
    const error = (await provider.authorize().catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe("token_request_failed");
    expect(error.oauthError).toBe("invalid_grant");
    expect(only(mcp, "/token")).toHaveLength(0);
  });
});

describe("requestIdJag", () => {
  it("authenticates to the IdP with a secret and returns the grant with its scope and expiry", async () => {
    const enterprise = await idp(() => ({
      body: {
        access_token: "jag",
        issued_token_type: ID_JAG,
        token_type: "N_A",
        scope: "a",
        expires_in: 300,
      },
    }));
    const jag = await requestIdJag({
      idp: { tokenEndpoint: `${enterprise.url}/token`, client: { clientId: "app", clientSecret: "pw" } },
      identityAssertion: "<saml/>",
      assertionType: "saml2",
      audience: "https://as.example",
      resource: "https://mcp.example/mcp",
      scope: "a b",
    });
    expect(jag.assertion).toBe("jag");
    expect(jag.scope).toBe("a");
    expect(jag.expiresAt).toBeGreaterThan(Date.now());
    const [request] = only(enterprise, "/token");
    expect(request!.headers.authorization).toBe(`Basic ${btoa("app:pw")}`);
    expect(request!.form.get("subject_token_type")).toBe("urn:ietf:params:oauth:token-type:saml2");
  });

  it("refuses a token that is not an ID-JAG", async () => {
    const enterprise = await idp(() => ({
      body: { access_token: "at", issued_token_type: "urn:ietf:params:oauth:token-type:access_token" },
    }));
    const error = (await requestIdJag({
      idp: { issuer: enterprise.issuer },
      identityAssertion: "id",
      audience: "https://as.example",
      resource: "https://mcp.example/mcp",
    }).catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe("token_request_failed");
    expect(error.message).toMatch(/not an ID-JAG/);
  });
});
