// The protocol layer (@mcpkit/protocol): MCP's vocabulary with no I/O — types per spec area for both
// eras, version constants, the method table, `_meta` keys, `McpError` and its codes, HTTP header
// encoding, content builders. This example uses it to make a modern request by hand against an mcpkit
// server over a raw JSON-RPC peer, and shows the helpers.
// Run: pnpm --filter @mcpkit/docs example examples/protocol-layer.ts
import { createInMemoryPair, createPeer } from "@mcpkit/jsonrpc";
import {
  type CallToolResult,
  type DiscoverResult,
  decodeHeaderValue,
  encodeHeaderValue,
  eraOf,
  getMethodInfo,
  Header,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  McpError,
  MetaKey,
  SUPPORTED_PROTOCOL_VERSIONS,
  text,
} from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";

console.log("versions:", SUPPORTED_PROTOCOL_VERSIONS.join(", "));
console.log(
  "latest:",
  LATEST_PROTOCOL_VERSION,
  eraOf(LATEST_PROTOCOL_VERSION),
  "| latest legacy:",
  LATEST_LEGACY_PROTOCOL_VERSION,
);
const info = getMethodInfo("tools/call", "modern");
console.log(
  "tools/call:",
  JSON.stringify({ direction: info?.direction, kind: info?.kind, capability: info?.capability }),
);
console.log(
  "header:",
  Header.Name,
  "=",
  encodeHeaderValue("héllo"),
  "→",
  decodeHeaderValue(encodeHeaderValue("héllo")),
);
console.log("text block:", JSON.stringify(text("hi")));

const server = createServer({ name: "raw", version: "1.0.0" });
server.registerTool("hello", {}, () => "hello, by hand");
const [left, right] = createInMemoryPair();
await server.connect(right);
const peer = createPeer(left);
await peer.start();
try {
  const _meta = {
    [MetaKey.ProtocolVersion]: LATEST_PROTOCOL_VERSION,
    [MetaKey.ClientCapabilities]: {},
    [MetaKey.ClientInfo]: { name: "by-hand", version: "1.0.0" },
  };
  const discovered = (await peer.request("server/discover", { _meta })) as DiscoverResult;
  console.log("discover: supports", discovered.supportedVersions.join(", "));
  const result = (await peer.request("tools/call", { name: "hello", _meta })) as CallToolResult;
  console.log("tools/call:", result.resultType, JSON.stringify(result.content));
  await peer
    .request("tools/call", { name: "hello", _meta: { ..._meta, [MetaKey.ProtocolVersion]: "1999-01-01" } })
    .catch((error) => {
      const mcp = McpError.fromJsonRpcError(error);
      console.log("unsupported version:", mcp.code, JSON.stringify(mcp.data));
    });
} finally {
  await peer.close();
  await server.close();
}
