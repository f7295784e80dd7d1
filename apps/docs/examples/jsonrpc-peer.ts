// The JSON-RPC layer (@mcpkit/jsonrpc) knows nothing of MCP: a Peer correlates requests and
// responses in both directions over any Transport, with timeouts, cancellation, progress routing and
// wire errors. Use it alone for a custom protocol, or to speak MCP by hand.
// Run: pnpm --filter @mcpkit/docs example examples/jsonrpc-peer.ts
import {
  createInMemoryPair,
  createLineFramer,
  createPeer,
  ErrorCode,
  JsonRpcError,
  parseMessages,
  TimeoutError,
} from "@mcpkit/jsonrpc";

const [left, right] = createInMemoryPair();
const server = createPeer(right);
server.onRequest("sum", (params: { values: number[] }) => params.values.reduce((a, b) => a + b, 0));
server.onRequest("divide", (params: { a: number; b: number }) => {
  if (params.b === 0) throw new JsonRpcError(ErrorCode.InvalidParams, "b must not be 0", { field: "b" });
  return params.a / params.b;
});
server.onRequest(
  "count",
  async (params: { to: number; _meta?: { progressToken?: string | number } }, ctx) => {
    // A request made with onProgress carries _meta.progressToken; progress notifications name it.
    const progressToken = params._meta?.progressToken;
    for (let i = 1; i <= params.to; i++) {
      if (progressToken !== undefined) {
        await ctx.notify("notifications/progress", { progressToken, progress: i, total: params.to });
      }
    }
    return "counted";
  },
);
server.onRequest(
  "hang",
  (_params, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(null))),
);
server.onNotification("log", (params) => console.log("server got notification:", JSON.stringify(params)));
await server.start();

const client = createPeer(left, { timeout: 5_000 });
await client.start();
try {
  console.log("sum:", await client.request("sum", { values: [1, 2, 3] }));
  await client.request("divide", { a: 1, b: 0 }).catch((error: JsonRpcError) => {
    console.log("divide: JsonRpcError", error.code, error.message, JSON.stringify(error.data));
  });
  await client.request("nope").catch((error: JsonRpcError) => console.log("unknown method:", error.code));
  const progress: number[] = [];
  await client.request("count", { to: 3 }, { onProgress: (p) => progress.push(p.progress) });
  console.log("progress seen:", progress.join(","));
  await client
    .request("hang", {}, { timeout: 50 })
    .catch((error) => console.log("hang:", error instanceof TimeoutError));
  await client.notify("log", { hello: "world" });

  // The byte framer used by stdio: bytes in, one frame per line out, however the chunks are cut.
  const frames: string[] = [];
  const framer = createLineFramer({
    onFrame: (line) => frames.push(line),
    onError: (error) => console.log(error),
  });
  const bytes = new TextEncoder().encode(
    '{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n',
  );
  framer.push(bytes.subarray(0, 10));
  framer.push(bytes.subarray(10));
  console.log(
    "framed:",
    frames.length,
    "messages;",
    frames
      .flatMap((f) => parseMessages(f))
      .map((m) => m.kind)
      .join(","),
  );
} finally {
  await client.close();
  await server.close();
}
