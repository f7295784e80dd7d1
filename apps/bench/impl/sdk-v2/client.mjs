// Official SDK v2 client (@modelcontextprotocol/client 2.4.0): Client over StdioClientTransport (its
// default era negotiation) or StreamableHTTPClientTransport, pinned to 2026-07-28 for the modern era.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { firstText, runDriver } from "../common/driver.mjs";

runDriver(async (spec) => {
  const options = spec.era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {};
  const client = new Client({ name: "bench-sdk-v2", version: "0.0.0" }, options);
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
    era: spec.era ?? "legacy",
  };
});
