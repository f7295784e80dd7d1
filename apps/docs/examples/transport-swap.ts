// Swapping transports: client and server never import a transport, so the same code runs over stdio,
// Streamable HTTP or anything else — only the line that connects changes.
//
// This file is both sides: started with `--serve` it is the stdio server.
// Run: pnpm --filter @mcpkit/docs example examples/transport-swap.ts
import { type Client, createClient } from "@mcpkit/client";
import { createServer, type Server } from "@mcpkit/server";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { listen } from "@mcpkit/transport-http/node";
import { serveStdio, spawnStdioTransport } from "@mcpkit/transport-stdio";

function buildServer(): Server {
  const server = createServer({ name: "swap-demo", version: "1.0.0" });
  server.registerTool("echo", {}, (args) => `echo ${JSON.stringify(args)}`);
  return server;
}

// The application code: it does not know how it is connected.
async function useServer(client: Client, label: string): Promise<void> {
  const result = await client.callTool("echo", { via: label });
  console.log(`${label}: ${result.content} (era ${client.era})`);
}

if (process.argv.includes("--serve")) {
  const server = buildServer();
  await serveStdio((transport) => server.connect(transport).then(() => {}));
} else {
  // stdio: the server is a child process.
  const overStdio = createClient({ name: "docs", version: "1.0.0" });
  await overStdio.connect(() =>
    spawnStdioTransport({
      command: process.execPath,
      args: [...process.execArgv, process.argv[1]!, "--serve"],
    }),
  );
  await useServer(overStdio, "stdio");
  await overStdio.close();

  // HTTP: the server listens on a port.
  const server = buildServer();
  const http = await listen({ port: 0, connect: (transport) => server.connect(transport).then(() => {}) });
  const overHttp = createClient({ name: "docs", version: "1.0.0" });
  await overHttp.connect(() => createStreamableHttpClientTransport({ url: http.url }));
  await useServer(overHttp, "http");
  await overHttp.close();
  await http.close();
  await server.close();
}
