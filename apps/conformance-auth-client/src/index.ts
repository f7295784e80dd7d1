// The client the official conformance suite spawns for its auth scenarios:
//   node dist/index.js <server-url>
// with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and (for some scenarios)
// MCP_CONFORMANCE_CONTEXT in the environment. It authorizes with @mcpkit/auth over the Streamable HTTP
// client transport, then lists tools and calls `test-tool`. Exit code 0 on success, 1 on any failure
// (the negative scenarios expect the client to refuse).
import {
  type ClientCredentials,
  createOAuthProvider,
  type OAuthProviderOptions,
  withAuth,
} from "@mcpkit/auth";
import { createPeer } from "@mcpkit/jsonrpc";
import {
  isModernVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  MetaKey,
  modernRequestHeaders,
} from "@mcpkit/protocol";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";

/** The Client ID Metadata Document URL the suite's CIMD scenarios expect as client_id. */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URI = "http://localhost:3000/callback";
const CLIENT_INFO = { name: "mcpkit-conformance-auth-client", version: "0.0.0" };

interface Context {
  /** The authorization server the suite pre-registered `client_id` with, when it says. */
  issuer?: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  valid_jwt?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
}

/**
 * The suite's authorization endpoint redirects at once, so the redirect step is a GET that does not
 * follow redirects: the `Location` carries `code`, `state` and `iss`.
 */
async function headlessRedirect(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location) throw new Error(`authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl).href;
}

/**
 * The suite's credentials are tied to its authorization server: the one it names in the context, else
 * (the machine-grant scenarios name none) whichever loopback server the suite's MCP server points to.
 */
function boundTo(context: Context, client: ClientCredentials): NonNullable<OAuthProviderOptions["client"]> {
  if (context.issuer) return { ...client, issuer: context.issuer };
  return (issuer) =>
    /^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(issuer) ? { ...client, issuer } : undefined;
}

function providerOptions(serverUrl: string, scenario: string, context: Context): OAuthProviderOptions {
  const base: OAuthProviderOptions = { serverUrl, dpop: true };
  if (scenario === "auth/client-credentials-jwt") {
    return {
      ...base,
      grant: "client_credentials",
      client: boundTo(context, {
        clientId: context.client_id ?? "",
        privateKey: context.private_key_pem ?? "",
        signingAlgorithm: (context.signing_algorithm ?? "ES256") as "ES256",
        tokenEndpointAuthMethod: "private_key_jwt",
      }),
    };
  }
  if (scenario === "auth/client-credentials-basic") {
    return {
      ...base,
      grant: "client_credentials",
      client: boundTo(context, {
        clientId: context.client_id ?? "",
        clientSecret: context.client_secret ?? "",
        tokenEndpointAuthMethod: "client_secret_basic",
      }),
    };
  }
  if (scenario === "auth/enterprise-managed-authorization") {
    // The user signed in to this client at the enterprise IdP; the suite hands over the ID Token.
    return {
      ...base,
      grant: {
        type: "enterprise_managed",
        identityAssertion: context.idp_id_token ?? "",
        idp: {
          ...(context.idp_issuer ? { issuer: context.idp_issuer } : {}),
          ...(context.idp_token_endpoint ? { tokenEndpoint: context.idp_token_endpoint } : {}),
          client: { clientId: context.idp_client_id ?? "" },
        },
      },
      client: boundTo(context, {
        clientId: context.client_id ?? "",
        clientSecret: context.client_secret ?? "",
        tokenEndpointAuthMethod: "client_secret_basic",
      }),
    };
  }
  if (scenario === "auth/wif-jwt-bearer") {
    return {
      ...base,
      grant: { type: "jwt_bearer", assertion: context.valid_jwt ?? "" },
      client: boundTo(context, { clientId: context.client_id ?? "", tokenEndpointAuthMethod: "none" }),
    };
  }
  const options: OAuthProviderOptions = {
    ...base,
    redirectUri: REDIRECT_URI,
    onRedirect: headlessRedirect,
    clientMetadataUrl: CIMD_URL,
    clientMetadata: { client_name: CLIENT_INFO.name },
  };
  if (context.client_id) {
    options.client = boundTo(context, {
      clientId: context.client_id,
      ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
    });
  }
  return options;
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  if (!serverUrl) throw new Error("usage: mcpkit-conformance-auth-client <server-url>");
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? LATEST_LEGACY_PROTOCOL_VERSION;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Context;
  const modern = isModernVersion(version);

  const provider = createOAuthProvider(providerOptions(serverUrl, scenario, context));
  const transport = createStreamableHttpClientTransport({
    url: serverUrl,
    fetch: withAuth(provider),
    era: modern ? "modern" : "legacy",
    ...(modern ? { protocolVersion: version } : {}),
    openStandaloneStream: false,
  });
  const peer = createPeer(transport, {});
  await peer.start();
  try {
    const meta = modern
      ? {
          _meta: {
            [MetaKey.ProtocolVersion]: version,
            [MetaKey.ClientCapabilities]: {},
            [MetaKey.ClientInfo]: CLIENT_INFO,
          },
        }
      : {};
    // A bare peer passes a modern request's headers itself: the HTTP transport computes none.
    const send = (method: string, params: Record<string, unknown>) =>
      peer.request(method, params, modern ? { headers: modernRequestHeaders(version, method, params) } : {});
    if (modern) {
      await send("server/discover", { ...meta });
    } else {
      await peer.request("initialize", {
        protocolVersion: version,
        capabilities: {},
        clientInfo: CLIENT_INFO,
      });
      await peer.notify("notifications/initialized", {});
    }
    await send("tools/list", { ...meta });
    await send("tools/call", { name: "test-tool", arguments: {}, ...meta });
  } finally {
    await peer.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `conformance-auth-client: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    let cause = error instanceof Error ? error.cause : undefined;
    while (cause) {
      process.stderr.write(`  caused by: ${cause instanceof Error ? cause.message : String(cause)}\n`);
      cause = cause instanceof Error ? cause.cause : undefined;
    }
    process.exit(1);
  },
);
