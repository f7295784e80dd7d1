import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import * as node from "../src/node.js";

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(root).sort()).toMatchInlineSnapshot(`
      [
        "AuthError",
        "InvalidTokenError",
        "authInfoOf",
        "authorizationServerMetadataUrls",
        "canonicalResourceUri",
        "createClientAssertion",
        "createDpopProof",
        "createInMemoryTokenStore",
        "createIntrospectionVerifier",
        "createJwtVerifier",
        "createOAuthProvider",
        "createPkce",
        "createProtectedResource",
        "discoverAuthorizationServer",
        "discoverProtectedResource",
        "formatChallenge",
        "generateDpopKey",
        "isResourceAllowed",
        "parseWwwAuthenticate",
        "protectedResourceMetadataUrls",
        "readResourceChallenge",
        "requestIdJag",
        "withAuth",
      ]
    `);
    expect(Object.keys(node).sort()).toMatchInlineSnapshot(`
      [
        "createFileTokenStore",
        "createLoopbackRedirect",
        "defaultTokenStorePath",
      ]
    `);
  });
});
