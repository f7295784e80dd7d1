// Connecting: `connect(target)` takes a command line (array or { command, args, cwd, env }), a URL, or
// any Transport; it picks the transport, negotiates the era and returns a ready client. `await using`
// closes it at the end of the scope; `withClient(target, fn)` does the same for code without `using`.
// Lower down, `createClient()` + `client.connect(transportOrFactory)` is the same thing by hand.
// Run: pnpm --filter @mcpkit/docs example examples/client-connect.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { connect, createServer, serve, withClient } from "mcpkit";

const server = createServer({ name: "hello", version: "1.0.0" });
server.registerTool("hello", {}, () => "hello");

if (process.argv.includes("--serve")) {
  await serve(server); // the child process of the command targets below
} else {
  const self = [process.execPath, ...process.execArgv, process.argv[1]!, "--serve"];

  // 1. A command line: the server runs as a child process over stdio.
  {
    await using client = await connect(self);
    console.log("command array:", client.serverInfo?.name, (await client.callTool("hello")).content);
  }
  {
    const [command, ...args] = self;
    await using client = await connect({ command: command!, args, env: { GREETING: "hi" } });
    console.log("command object:", client.serverInfo?.name);
  }

  // 2. A URL (Streamable HTTP; falls back to the 2024-11-05 HTTP+SSE transport for old servers).
  const http = await serve(server, { transport: "http", port: 0, block: false, onListening() {} });
  try {
    const tools = await withClient(http.url, (client) => client.listTools(), {
      headers: { "X-Request-Source": "docs" },
    });
    console.log("url + withClient:", tools.map((t) => t.name).join(", "));
  } finally {
    await http.close();
  }

  // 3. Any Transport, here an in-memory pair.
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  {
    await using client = await connect(clientSide, { name: "my-host", version: "2.0.0" });
    console.log("transport:", client.serverInfo?.name, client.era);
  }

  // 4. By hand: a transport factory lets the client reconnect (see client-crash-respawn.ts).
  const client = createClient({ name: "my-host", version: "2.0.0" });
  await client.connect(() =>
    spawnStdioTransport({ command: self[0]!, args: self.slice(1), stderr: "ignore" }),
  );
  console.log("createClient + factory:", client.serverInfo?.name, client.protocolVersion);
  await client.close();
  await server.close();
}
