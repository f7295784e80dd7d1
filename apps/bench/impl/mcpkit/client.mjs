// mcpkit client (@mcpkit/client, built dist): over spawnStdioTransport (default era negotiation, `auto`)
// or createStreamableHttpClientTransport (with createNodeFetch, as mcpkit's connect() uses on Node) with
// the era the spec names.
import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { createNodeFetch, nodeBodyReader } from "@mcpkit/transport-http/node";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { runDriver } from "../common/driver.mjs";
import { telemetryOption } from "./otel.mjs";

runDriver(async (spec) => {
  // Scenario 11 sets `spec.telemetry`; elsewhere the default (the API is resolvable here, no SDK).
  const telemetry = spec.telemetry ? await telemetryOption(spec.telemetry) : undefined;
  const client = createClient({
    name: "bench-mcpkit",
    version: "0.0.0",
    ...(spec.era ? { versionNegotiation: spec.era } : {}),
    ...(telemetry === false ? { telemetry } : {}),
  });
  const transport =
    spec.transport === "stdio"
      ? spawnStdioTransport({ command: spec.server.command, args: spec.server.args, stderr: "inherit" })
      : // As `connect()` from mcpkit does on Node: node:http keep-alive agents rather than the global fetch.
        createStreamableHttpClientTransport({
          url: spec.url,
          fetch: createNodeFetch(),
          bodyReader: nodeBodyReader,
          ...(spec.era ? { era: spec.era } : {}),
        });
  await client.connect(transport);
  const call = async (name, args) => {
    const result = await client.callTool(name, args);
    if (result.isError) throw new Error(`client: tool error: ${result.content.slice(0, 200)}`);
    return result.content;
  };
  return {
    echo: (text) => call("echo", { text }),
    blob: async (bytes) => (await call("blob", { bytes })).length,
    // refresh: the client caches lists; every timed list must reach the server.
    list: async () => (await client.listTools({ refresh: true })).length,
    stats: async () => JSON.parse(await call("stats", {})),
    close: () => client.close(),
    era: client.era,
  };
});
