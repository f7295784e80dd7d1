import { PassThrough } from "node:stream";
import { type Client, createClient } from "@mcpkit/client";
import { createServer } from "@mcpkit/server";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterEach } from "vitest";

/** 118 characters, with dots: valid for MCP (SEP-986), over the providers' 64. */
export const LONG_TOOL_NAME = `reports.quarterly.${"x".repeat(100)}`;

/** Valid for MCP (SEP-986), not for providers: dots, over 64 characters, and a name rewriting would hit. */
export const PROVIDER_REFUSED_NAMES: readonly string[] = ["files.read", "files_read", LONG_TOOL_NAME];

/**
 * Registers an `afterEach` that closes what it made, and returns `serverWith(names)`: a client on a real
 * server (stdio framing over in-process streams) whose every tool answers with its own name.
 * Registration checks SEP-986, so each name the server takes passes it.
 */
export function useNamedToolServers(): (names: readonly string[]) => Promise<Client> {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return async (names) => {
    const server = createServer({ name: "names", version: "1" });
    for (const name of names) server.registerTool(name, { description: `tool ${name}` }, () => name);
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    await server.connect(createStreamTransport({ readable: toServer, writable: toClient }));
    const client = createClient({ name: "t", version: "1" });
    await client.connect(createStreamTransport({ readable: toClient, writable: toServer }));
    closers.push(
      () => client.close(),
      () => server.close(),
    );
    return client;
  };
}
