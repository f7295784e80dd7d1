// What the READMEs' TypeScript snippets take as already there, typed: the reader's own server, clients,
// secrets and helpers, and the names a snippet uses from the one above it in the same README. The type
// matrix compiles every snippet with this file beside it; anything else a snippet names must be imported.
import type { TokenStore } from "@mcpkit/auth";
import type { Client } from "@mcpkit/client";
import type { Implementation } from "@mcpkit/protocol";
import type { Server } from "@mcpkit/server";

declare global {
  /** The reader's server (`createServer(…)` with their tools). */
  const server: Server;
  const myServer: Server;
  /** Connected clients: any server, the filesystem and memory reference servers. */
  const client: Client;
  const files: Client;
  const memory: Client;
  /** The host's own sign-on session, secrets and token store. */
  const session: { idToken: string };
  const clientSecret: string;
  const mcpSecret: string;
  const clientInfo: Implementation;
  const myKeychainStore: TokenStore;
  /** The reader's MCP request handler, e.g. `createStreamableHttpHandler(…)`. */
  function mcpHandler(request: Request): Promise<Response>;
  /** Opens a URL in the user's browser (the `open` package). */
  function open(url: string): Promise<unknown>;
  /** A transport to a server (any of stdio, Streamable HTTP, in-memory), a live one for a cassette check. */
  const transport: import("@mcpkit/jsonrpc").Transport;
  const liveTransport: import("@mcpkit/jsonrpc").Transport;
  /** What an HTTP handler hands `server.handle`: its request's info and signal, and the SSE stream. */
  const info: NonNullable<Parameters<Server["handle"]>[1]>["info"];
  const signal: AbortSignal;
  const stream: { write(message: unknown): void };
  /** A tool's arguments, and a host's chat UI and a view's renderer. */
  const args: Record<string, unknown>;
  const chat: { addUserMessage(content: unknown): void };
  function render(content: unknown): void;
  /** The host's UI and model: whatever they answer is the reader's to supply. */
  function askUser(params: unknown): Promise<never>;
  function runModel(params: unknown): Promise<never>;
  /** Names imported by an earlier snippet of the same README. */
  const createServer: typeof import("@mcpkit/server").createServer;
  const serve: typeof import("mcpkit").serve;
  const createOAuthProvider: typeof import("@mcpkit/auth").createOAuthProvider;
  const createStreamableHttpHandler: typeof import("@mcpkit/transport-http").createStreamableHttpHandler;
  const createStreamableHttpClientTransport: typeof import("@mcpkit/transport-http").createStreamableHttpClientTransport;
  const connect: Parameters<
    typeof import("@mcpkit/transport-http").createStreamableHttpHandler
  >[0]["connect"];
}
