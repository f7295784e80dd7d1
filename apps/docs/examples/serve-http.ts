// Serving over Streamable HTTP, both protocol eras on one endpoint: legacy clients get an
// `initialize` session (`Mcp-Session-Id`), 2026-07-28 clients send stateless requests. `serve` binds
// 127.0.0.1 by default (with the Host check against DNS rebinding); `block: false` returns the running
// server instead of waiting for SIGINT/SIGTERM. `eras: "modern" | "legacy"` serves one era only.
// Run: pnpm --filter @mcpkit/docs example examples/serve-http.ts
import type { StreamableHttpClientTransport } from "@mcpkit/transport-http";
import { connect, createServer, serve } from "mcpkit";

const server = createServer({ name: "http-demo", version: "1.0.0" });
server.registerTool("whoami", {}, (_args, ctx) => `era ${ctx.era}, protocol ${ctx.protocolVersion}`);

const http = await serve(server, {
  transport: "http",
  port: 0, // any free port; the default is 8080
  path: "/mcp",
  block: false,
  onListening: (url) => console.log("listening on", url.replace(/:\d+\//, ":<port>/")),
});
try {
  for (const versionNegotiation of ["auto", "modern", "legacy"] as const) {
    await using client = await connect(http.url, { versionNegotiation });
    const transport = client.transport as StreamableHttpClientTransport;
    console.log(
      `${versionNegotiation}: ${(await client.callTool("whoami")).content}`,
      `| session id: ${transport.sessionId === undefined ? "none" : "yes"}`,
    );
  }
} finally {
  await http.close();
}

// One era only: a legacy-only endpoint is still reached by `auto`, which falls back to initialize.
const legacyOnly = await serve(server, {
  transport: "http",
  port: 0,
  block: false,
  eras: "legacy",
  onListening() {},
});
try {
  await using client = await connect(legacyOnly.url);
  console.log("legacy-only endpoint, auto client:", client.era, client.protocolVersion);
} finally {
  await legacyOnly.close();
  await server.close();
}
