// Official SDK v1 client: Client over StdioClientTransport (spawns the server) or
// StreamableHTTPClientTransport (legacy session).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { firstText, runDriver } from "../common/driver.mjs";

runDriver(async (spec) => {
  const client = new Client({ name: "bench-sdk-v1", version: "0.0.0" });
  const transport =
    spec.transport === "stdio"
      ? new StdioClientTransport({
          command: spec.server.command,
          args: spec.server.args,
          env: process.env,
          stderr: "inherit",
        })
      : new StreamableHTTPClientTransport(new URL(spec.url));
  await client.connect(transport);
  const call = async (name, args) => firstText(await client.callTool({ name, arguments: args }));
  return {
    echo: (text) => call("echo", { text }),
    blob: async (bytes) => (await call("blob", { bytes })).length,
    list: async () => (await client.listTools()).tools.length,
    stats: async () => JSON.parse(await call("stats", {})),
    close: () => client.close(),
    era: "legacy",
  };
});
