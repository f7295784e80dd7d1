// In-memory transports for tests: `createInMemoryPair()` connects a client and a server in one process
// with no I/O (delivery on a microtask). To test the HTTP layer without a socket, hand the Web-standard
// handler to the client transport as its `fetch`: the same code then runs on Deno, Bun or an edge worker.
// Run: pnpm --filter @mcpkit/docs example examples/transport-in-memory.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { createStreamableHttpClientTransport, createStreamableHttpHandler } from "@mcpkit/transport-http";

const server = createServer({ name: "under-test", version: "1.0.0" });
server.registerTool(
  "double",
  { inputSchema: { type: "object", properties: { n: { type: "number" } } } },
  (args: { n: number }) => String(args.n * 2),
);

// 1. A pair of in-memory transports.
{
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const client = createClient({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  console.log("in-memory pair:", (await client.callTool("double", { n: 21 })).content);
  await client.close();
}

// 2. The Streamable HTTP handler called in-process: real HTTP semantics, no port.
{
  const handler = createStreamableHttpHandler({
    connect: (transport) => server.connect(transport).then(() => {}),
  });
  let requests = 0;
  const client = createClient({ name: "test", version: "1.0.0" });
  await client.connect(() =>
    createStreamableHttpClientTransport({
      url: "http://localhost/mcp",
      fetch: (input, init) => {
        requests += 1;
        return handler.fetch(new Request(input, init));
      },
    }),
  );
  console.log(
    "in-process HTTP:",
    (await client.callTool("double", { n: 50 })).content,
    `(${requests} HTTP requests)`,
  );
  await client.close();
  await handler.close();
}
await server.close();
