// recordTransport changes no byte: the same session over real byte streams (our client and server, stdio
// framing) is run with and without the recording, and the bytes each way are compared.
import { PassThrough } from "node:stream";
import { recordTransport } from "@mcpkit/testing";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { describe, expect, it } from "vitest";
import { connect, createServer } from "../src/index.js";

function echoServer() {
  const server = createServer({ name: "echo", version: "1.0.0" });
  server.registerTool(
    "echo",
    { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    ({ text }: { text: string }) => `${text} ✓ \u00e9`,
  );
  return server;
}

/** Runs one session over two byte pipes and returns what went each way. */
async function run(record: boolean, era: "modern" | "legacy") {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const up: Buffer[] = [];
  const down: Buffer[] = [];
  toServer.on("data", (c: Buffer) => up.push(c));
  toClient.on("data", (c: Buffer) => down.push(c));
  await echoServer().connect(createStreamTransport({ readable: toServer, writable: toClient }));
  const raw = createStreamTransport({ readable: toClient, writable: toServer });
  const recording = record ? recordTransport(raw) : undefined;
  await using client = await connect(recording?.transport ?? raw, {
    versionNegotiation: era,
    name: "c",
    version: "1",
  });
  await client.callTool("echo", { text: 'quotes " and \\ and \u2028' });
  await client.listTools();
  return { up: Buffer.concat(up), down: Buffer.concat(down), cassette: recording?.cassette() };
}

describe("recordTransport", () => {
  for (const era of ["modern", "legacy"] as const) {
    it(`passes every byte through unchanged both ways (${era})`, async () => {
      const plain = await run(false, era);
      const recorded = await run(true, era);
      expect(recorded.up.length).toBeGreaterThan(100);
      expect(recorded.up.equals(plain.up)).toBe(true);
      expect(recorded.down.equals(plain.down)).toBe(true);
      expect(recorded.cassette?.era).toBe(era);
      expect(recorded.cassette?.events.length).toBeGreaterThan(4);
    });
  }
});
