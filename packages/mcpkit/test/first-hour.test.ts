// What a newcomer does in the first hour with the umbrella: test a server in-process with the client
// API, serve it over streams of their own, and learn plainly that a pinned era does not fit a server.
import { PassThrough } from "node:stream";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { describe, expect, it } from "vitest";
import { connect, createClient, createServer, McpError, serve } from "../src/index.js";

function weatherServer() {
  const server = createServer({ name: "weather", version: "1.0.0" });
  server.registerTool(
    "forecast",
    { inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
    ({ city }: { city: string }) => `Sunny in ${city}`,
  );
  return server;
}

describe("connect(server): a server in this process", () => {
  it("is tested with the same client API, in three lines", async () => {
    const server = weatherServer();
    await using client = await connect(server);
    expect((await client.callTool("forecast", { city: "Oslo" })).content).toBe("Sunny in Oslo");
    expect(client.era).toBe("modern");
    expect((await client.listTools()).map((t) => t.name)).toEqual(["forecast"]);
  });

  it("takes the client's options (a forced era) and leaves the server running after the client closed", async () => {
    const server = weatherServer();
    const legacy = await connect(server, { versionNegotiation: "legacy" });
    expect(legacy.era).toBe("legacy");
    await legacy.close();
    await using again = await connect(server);
    expect((await again.callTool("forecast", { city: "Rome" })).content).toBe("Sunny in Rome");
  });
});

describe("serve(server) over streams of one's own", () => {
  it("serves stdio on the given stdin/stdout and resolves when stdin ends", async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = serve(weatherServer(), { stdin: toServer, stdout: fromServer });
    const client = createClient({ name: "t", version: "1" });
    await client.connect(createStreamTransport({ readable: fromServer, writable: toServer }));
    expect((await client.callTool("forecast", { city: "Lima" })).content).toBe("Sunny in Lima");
    await client.close();
    await expect(served).resolves.toBeUndefined();
  });
});

describe("a client pinned to 2026-07-28 against a legacy-only HTTP server", () => {
  it("is told plainly that the server does not speak that revision", async () => {
    const running = await serve(weatherServer(), {
      transport: "http",
      port: 0,
      block: false,
      eras: "legacy",
      onListening: () => {},
    });
    try {
      const error = await connect(running.url, { versionNegotiation: "modern" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as Error).message).toBe(
        'The server does not speak the 2026-07-28 protocol revision that versionNegotiation "modern" requires (it answered server/discover with: Bad Request: Mcp-Session-Id header is required (send initialize first to open a session)); connect with versionNegotiation "auto" or "legacy"',
      );
    } finally {
      await running.close();
    }
  });
});
