// MRTR (multi round-trip requests), 2026-07-28: the modern era has no server-to-client requests.
// When a handler needs input (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) in a modern request, the
// attempt ends with `{ resultType: "input_required", inputRequests, requestState }`. The client answers
// each input request and sends the SAME request again with `inputResponses` and the opaque
// `requestState`; the server re-runs the handler, and this time `ctx.elicit()` returns the answer.
// `ctx.state` values survive the rounds inside requestState, which the server protects with an HMAC.
//
// This example speaks the wire format by hand with a raw JSON-RPC peer to show the rounds, then lets
// @mcpkit/client do the same thing for you.
// Run: pnpm --filter @mcpkit/docs example examples/mrtr.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair, createPeer } from "@mcpkit/jsonrpc";
import { type InputRequiredResult, LATEST_PROTOCOL_VERSION, MetaKey, ResultType } from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";

const server = createServer({ name: "mrtr-demo", version: "1.0.0" });
let runs = 0;
server.registerTool("order_pizza", {}, async (_args, ctx) => {
  runs += 1;
  // Work done before an input call runs again on each round; keep what must not change in ctx.state.
  const orderNo = (ctx.state.get("orderNo") as number | undefined) ?? 1000 + runs;
  ctx.state.set("orderNo", orderNo);
  const size = await ctx.elicit(
    { message: "Which size?", requestedSchema: { type: "object", properties: { size: { type: "string" } } } },
    { key: "size" },
  );
  return `Order ${orderNo}: one ${String(size.content?.size)} pizza`;
});

// --- 1. By hand --------------------------------------------------------------------------------------
const [left, right] = createInMemoryPair();
await server.connect(right);
const peer = createPeer(left);
await peer.start();
const _meta = {
  [MetaKey.ProtocolVersion]: LATEST_PROTOCOL_VERSION,
  [MetaKey.ClientCapabilities]: { elicitation: { form: {} } },
  [MetaKey.ClientInfo]: { name: "by-hand", version: "1.0.0" },
};
const first = (await peer.request("tools/call", {
  name: "order_pizza",
  arguments: {},
  _meta,
})) as InputRequiredResult;
console.log("round 1 resultType:", first.resultType);
console.log("round 1 asks:", JSON.stringify(first.inputRequests));
console.log("requestState is opaque:", typeof first.requestState, `${first.requestState?.slice(0, 12)}…`);

const second = (await peer.request("tools/call", {
  name: "order_pizza",
  arguments: {},
  _meta,
  inputResponses: { size: { action: "accept", content: { size: "large" } } },
  requestState: first.requestState,
})) as { resultType: string; content: Array<{ text: string }> };
console.log("round 2 resultType:", second.resultType, ResultType.Complete === second.resultType);
console.log("round 2 result:", second.content[0]?.text);

// A tampered requestState is refused (-32602).
const forged = `${first.requestState?.slice(0, -4)}AAAA`;
await peer
  .request("tools/call", {
    name: "order_pizza",
    arguments: {},
    _meta,
    inputResponses: {},
    requestState: forged,
  })
  .catch((error: { code: number }) => console.log("tampered requestState → error", error.code));
await peer.close();

// --- 2. With @mcpkit/client: the rounds are invisible -------------------------------------------------
const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({
  name: "docs",
  version: "1.0.0",
  handlers: { elicitation: () => ({ action: "accept", content: { size: "small" } }) },
});
await client.connect(clientSide);
try {
  console.log("client:", (await client.callTool("order_pizza")).content, `(era ${client.era})`);
  console.log("handler runs in total:", runs);
} finally {
  await client.close();
  await server.close();
}
