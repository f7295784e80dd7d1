import { type Client, type ClientOptions, createClient } from "@mcpkit/client";
import { createInMemoryPair, type Transport } from "@mcpkit/jsonrpc";

/** A server of this process: an `@mcpkit/server` server, or anything with `connect(transport)`. */
export interface ConnectableServer {
  connect(transport: Transport): unknown;
}

/** Options of {@link connectInProcess}: the client's options, with a name and version filled in. */
export interface InProcessOptions extends Partial<ClientOptions> {
  /**
   * Give the pair a stream per request, as HTTP has (an abort then closes the request's stream instead of
   * sending `notifications/cancelled`). Default false, as stdio.
   */
  perRequestStream?: boolean;
}

/** A client joined to an in-process server, closed at the end of an `await using` scope. */
export type InProcessClient = Client & AsyncDisposable;

/**
 * Connects a new client to `server` through an in-memory pair: no process, no port, the same client API
 * and both eras (`versionNegotiation: "legacy"` tests the legacy one). The server end is connected first,
 * so nothing the client sends can arrive before the server listens. Closing the client ends the
 * connection; the server stays the caller's to close.
 *
 * ```ts
 * await using client = await connectInProcess(server);
 * expect((await client.callTool("forecast", { city: "Oslo" })).content).toBe("Sunny in Oslo");
 * ```
 */
export async function connectInProcess(
  server: ConnectableServer,
  options: InProcessOptions = {},
): Promise<InProcessClient> {
  const { perRequestStream = false, ...clientOptions } = options;
  const [clientEnd, serverEnd] = createInMemoryPair({ perRequestStream });
  await server.connect(serverEnd);
  const client = createClient(
    Object.assign({ name: "mcpkit-testing", version: "0.1.0" }, clientOptions) as ClientOptions,
  ) as InProcessClient;
  try {
    await client.connect(clientEnd);
  } catch (error) {
    await client.close();
    throw error;
  }
  client[Symbol.asyncDispose] = () => client.close();
  return client;
}
