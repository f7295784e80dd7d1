// Era negotiation: by default (`versionNegotiation: "auto"`) the client probes `server/discover`;
// a DiscoverResult (or a recognised modern error) means the stateless 2026-07-28 era, anything else
// falls back to the legacy `initialize` handshake. `"modern"` / `"legacy"` force an era and
// `protocolVersion` picks a version within it. The era found is remembered per `serverKey`.
// Run: pnpm --filter @mcpkit/docs example examples/client-eras.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair, createPeer, ErrorCode, JsonRpcError } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

// An mcpkit server speaks both eras.
const dual = createServer({ name: "dual", version: "1.0.0" });
dual.registerTool("ping_me", {}, () => "pong");

// A legacy-only server, written at the JSON-RPC level, logs the methods it receives.
function legacyOnlyTransport() {
  const [clientSide, serverSide] = createInMemoryPair();
  const peer = createPeer(serverSide);
  peer.onRequest("initialize", (params: { protocolVersion: string }) => {
    console.log(`  legacy server got initialize (client offers ${params.protocolVersion})`);
    return {
      protocolVersion: "2025-03-26",
      capabilities: {},
      serverInfo: { name: "old-server", version: "0.9.0" },
    };
  });
  // server/discover is unknown here: -32601, which tells the client this is a legacy server.
  peer.onAnyRequest((_params, ctx) => {
    console.log(`  legacy server got ${ctx.method} → -32601`);
    throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${ctx.method}`);
  });
  void peer.start();
  return clientSide;
}

async function show(
  label: string,
  options: Parameters<typeof createClient>[0],
  transport: () => Promise<unknown>,
) {
  const client = createClient(options);
  await client.connect((await transport()) as never);
  console.log(`${label}: ${client.serverInfo?.name} → era ${client.era}, version ${client.protocolVersion}`);
  await client.close();
}

const toDual = async () => {
  const [clientSide, serverSide] = createInMemoryPair();
  await dual.connect(serverSide);
  return clientSide;
};
await show("auto, dual server", { name: "docs", version: "1" }, toDual);
await show("legacy forced", { name: "docs", version: "1", versionNegotiation: "legacy" }, toDual);
await show(
  "legacy 2025-06-18",
  { name: "docs", version: "1", versionNegotiation: "legacy", protocolVersion: "2025-06-18" },
  toDual,
);
await show("auto, legacy-only server", { name: "docs", version: "1" }, async () => legacyOnlyTransport());
await dual.close();
