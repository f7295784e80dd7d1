import { afterEach, describe, expect, it } from "vitest";
import { createOAuthProvider, type OAuthProviderOptions, withAuth } from "../src/index.js";
import {
  type AuthServerConfig,
  headlessRedirect,
  type LoopbackAuthServer,
  startLoopbackAuthServer,
} from "./support/loopback-auth-server.js";
import { authRejection } from "./support/rejection.js";

const REDIRECT = "http://127.0.0.1:9/callback";
let server: LoopbackAuthServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(config: AuthServerConfig, extra: Partial<OAuthProviderOptions> = {}) {
  server = await startLoopbackAuthServer(config);
  const provider = createOAuthProvider({
    serverUrl: server.mcpUrl,
    redirectUri: REDIRECT,
    onRedirect: headlessRedirect,
    ...extra,
  });
  const call = () => withAuth(provider)(server!.mcpUrl, { method: "POST", body: "{}" });
  return { server, provider, call };
}

describe("protected resource metadata discovery", () => {
  it("uses the resource_metadata URL of the challenge and tries no well-known URL", async () => {
    const { server, call } = await setup({ prmPaths: ["/custom/metadata.json"] });
    expect((await call()).status).toBe(200);
    expect(server.paths()).toContain("/custom/metadata.json");
    expect(server.paths().some((p) => p.startsWith("/.well-known/oauth-protected-resource"))).toBe(false);
  });

  it("without resource_metadata, tries the path-aware well-known URL first", async () => {
    const { server, call } = await setup({ challengeWithMetadata: false });
    expect((await call()).status).toBe(200);
    const prm = server.paths().filter((p) => p.startsWith("/.well-known/oauth-protected-resource"));
    expect(prm).toEqual(["/.well-known/oauth-protected-resource/mcp"]);
  });

  it("falls back to the root well-known URL when the path-aware one is missing", async () => {
    const { server, call } = await setup({
      challengeWithMetadata: false,
      prmPaths: ["/.well-known/oauth-protected-resource"],
    });
    server.config.prmResource = server.url;
    expect((await call()).status).toBe(200);
    const prm = server.paths().filter((p) => p.startsWith("/.well-known/oauth-protected-resource"));
    expect(prm).toEqual([
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]);
    // The resource indicator is the one the metadata published.
    const token = server.requests.find((r) => r.path === "/token")!;
    expect(token.form.get("resource")).toBe(server.url);
  });

  it("falls back to the well-known URLs when the challenge's resource_metadata URL fails", async () => {
    const { server, call } = await setup({});
    server.config.resource = (authorization) => {
      const token = authorization?.slice("Bearer ".length);
      if (token && server.issued.has(token)) return undefined;
      return {
        status: 401,
        headers: { "www-authenticate": `Bearer resource_metadata="${server.url}/gone"` },
      };
    };
    expect((await call()).status).toBe(200);
    expect(server.paths().filter((p) => p === "/gone" || p.includes("oauth-protected-resource"))).toEqual([
      "/gone",
      "/.well-known/oauth-protected-resource/mcp",
    ]);
  });

  it("refuses when no protected resource metadata exists", async () => {
    const { server, call } = await setup({ challengeWithMetadata: false, prmPaths: ["/elsewhere"] });
    const error = await authRejection(call());
    expect(error.code).toBe("resource_metadata_not_found");
    expect(server.paths()).not.toContain("/authorize");
  });

  it("refuses metadata for another resource before any authorization request", async () => {
    const { server, call } = await setup({ prmResource: "https://evil.example.com/mcp" });
    const error = await authRejection(call());
    expect(error.code).toBe("resource_mismatch");
    expect(server.paths().some((p) => p.includes("authorization-server") || p === "/authorize")).toBe(false);
  });

  it("refuses metadata for a sibling path on the same origin", async () => {
    const { server, call } = await setup({});
    server.config.prmResource = `${server.url}/other`;
    expect((await authRejection(call())).code).toBe("resource_mismatch");
  });
});

describe("authorization server metadata discovery", () => {
  it("issuer without a path: OAuth well-known first", async () => {
    const { server, call } = await setup({});
    expect((await call()).status).toBe(200);
    const as = server.paths().filter((p) => p.includes("authorization-server") || p.includes("openid"));
    expect(as).toEqual(["/.well-known/oauth-authorization-server"]);
  });

  it("issuer without a path: falls back to OpenID Connect discovery", async () => {
    const { server, call } = await setup({ asMetadataPaths: ["/.well-known/openid-configuration"] });
    expect((await call()).status).toBe(200);
    const as = server.paths().filter((p) => p.includes("authorization-server") || p.includes("openid"));
    expect(as).toEqual(["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]);
  });

  it("issuer with a path: tries the three URLs in order and never the root", async () => {
    const { server, call } = await setup({
      issuerPath: "/tenant1",
      asMetadataPaths: ["/tenant1/.well-known/openid-configuration"],
    });
    expect((await call()).status).toBe(200);
    const as = server.paths().filter((p) => p.includes("authorization-server") || p.includes("openid"));
    expect(as).toEqual([
      "/.well-known/oauth-authorization-server/tenant1",
      "/.well-known/openid-configuration/tenant1",
      "/tenant1/.well-known/openid-configuration",
    ]);
  });

  it("issuer with a path: stops at the first URL that answers", async () => {
    const { server, call } = await setup({ issuerPath: "/tenant1" });
    expect((await call()).status).toBe(200);
    const as = server.paths().filter((p) => p.includes("authorization-server") || p.includes("openid"));
    expect(as).toEqual(["/.well-known/oauth-authorization-server/tenant1"]);
  });

  it("refuses metadata whose issuer differs from the one it was looked up with, and never uses it", async () => {
    const { server, call } = await setup({ metadataIssuer: "https://attacker.example.com" });
    expect((await authRejection(call())).code).toBe("issuer_mismatch");
    expect(server.paths().some((p) => ["/register", "/authorize", "/token"].includes(p))).toBe(false);
  });

  it("refuses a trailing-slash variant of the issuer (simple string comparison)", async () => {
    const { server, call } = await setup({});
    server.config.metadataIssuer = `${server.url}/`;
    expect((await authRejection(call())).code).toBe("issuer_mismatch");
  });

  it("refuses when no metadata exists at any URL", async () => {
    const { call } = await setup({ asMetadataPaths: [] });
    expect((await authRejection(call())).code).toBe("authorization_server_metadata_not_found");
  });
});

describe("PKCE", () => {
  it("refuses an authorization server that does not advertise code_challenge_methods_supported", async () => {
    const { server, call } = await setup({ metadata: { code_challenge_methods_supported: undefined } });
    expect((await authRejection(call())).code).toBe("pkce_not_supported");
    expect(server.paths()).not.toContain("/authorize");
    expect(server.paths()).not.toContain("/register");
  });

  it("refuses an authorization server that only offers plain", async () => {
    const { call } = await setup({ metadata: { code_challenge_methods_supported: ["plain"] } });
    expect((await authRejection(call())).code).toBe("pkce_not_supported");
  });

  it("sends an S256 challenge and the matching verifier", async () => {
    const { server, call } = await setup({});
    expect((await call()).status).toBe(200);
    const authorize = server.requests.find((r) => r.path === "/authorize")!;
    expect(authorize.query.get("code_challenge_method")).toBe("S256");
    expect(authorize.query.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The server checks the verifier against the challenge; a 200 means it matched.
  });
});

describe("authorization response validation (RFC 9207, state)", () => {
  it("accepts the correct iss", async () => {
    const { call } = await setup({ issInRedirect: "correct" });
    expect((await call()).status).toBe(200);
  });

  it("accepts a response without iss when the server does not advertise it", async () => {
    const { call } = await setup({
      issInRedirect: "omit",
      metadata: { authorization_response_iss_parameter_supported: undefined },
    });
    expect((await call()).status).toBe(200);
  });

  it("refuses a missing iss when the server advertises it", async () => {
    const { server, call } = await setup({ issInRedirect: "omit" });
    expect((await authRejection(call())).code).toBe("invalid_authorization_response");
    expect(server.paths()).not.toContain("/token");
  });

  it("refuses a wrong iss even when the server does not advertise it", async () => {
    const { server, call } = await setup({
      issInRedirect: "https://evil.example.com",
      metadata: { authorization_response_iss_parameter_supported: undefined },
    });
    expect((await authRejection(call())).code).toBe("invalid_authorization_response");
    expect(server.paths()).not.toContain("/token");
  });

  it("refuses a normalization-equivalent iss (trailing slash)", async () => {
    const { server, call } = await setup({});
    server.config.issInRedirect = `${server.url}/`;
    expect((await authRejection(call())).code).toBe("invalid_authorization_response");
    expect(server.paths()).not.toContain("/token");
  });

  it("refuses a response whose state does not match", async () => {
    const { server, call } = await setup(
      {},
      {
        onRedirect: async (url) => {
          const location = new URL(await headlessRedirect(url));
          location.searchParams.set("state", "forged");
          return location;
        },
      },
    );
    expect((await authRejection(call())).code).toBe("invalid_authorization_response");
    expect(server.paths()).not.toContain("/token");
  });

  it("reports an error response as authorization_denied (after checking iss)", async () => {
    const { call } = await setup(
      {},
      {
        onRedirect: async (url) => {
          const location = new URL(await headlessRedirect(url));
          location.searchParams.delete("code");
          location.searchParams.set("error", "access_denied");
          return location.search;
        },
      },
    );
    const error = await authRejection(call());
    expect(error.code).toBe("authorization_denied");
    expect(error.oauthError).toBe("access_denied");
  });

  it("turns a failing redirect callback into redirect_failed", async () => {
    const { call } = await setup(
      {},
      {
        onRedirect: async () => {
          throw new Error("user closed the browser");
        },
      },
    );
    expect((await authRejection(call())).code).toBe("redirect_failed");
  });
});
