import type { Transport } from "@mcpkit/jsonrpc";
import type { HttpServerHandle } from "@mcpkit/transport-http/node";
import { listen } from "@mcpkit/transport-http/node";
import { serveStdio } from "@mcpkit/transport-stdio";

/** Anything with `connect(transport)`: an `@mcpkit/server` server, or another implementation. */
export interface Connectable {
  connect(transport: Transport): unknown;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Default `stdio`. */
  transport?: "stdio" | "http";
  /** HTTP: default `127.0.0.1` (loopback: the Host check against DNS rebinding is on). */
  host?: string;
  /** HTTP: default 8080; 0 picks a free port. */
  port?: number;
  /** HTTP: default `/mcp`. */
  path?: string;
  /** HTTP: origins allowed besides localhost. */
  allowedOrigins?: string[];
  /**
   * HTTP: wait until the server is closed (SIGINT/SIGTERM close it). Default true; false returns the
   * running server at once.
   */
  block?: boolean;
  /** HTTP: which protocol eras to serve. Default both. */
  eras?: "both" | "modern" | "legacy";
  /** HTTP: called once listening, with the URL (default: a line on stderr). */
  onListening?: (url: string) => void;
  /**
   * HTTP: protects the endpoint with OAuth (`createProtectedResource(…)` from `@mcpkit/auth` fits):
   * every request is authenticated before it is read (a 401/403 challenge otherwise), the protected
   * resource metadata is served at its well-known URL, and handlers see the verified identity as
   * `ctx.authInfo`.
   */
  protect?: {
    authenticate(request: Request): Promise<unknown>;
    serveMetadata(request: Request): Response | undefined;
  };
}

/** A running HTTP server. */
export type RunningServer = HttpServerHandle;

/**
 * Serves a server over stdio or Streamable HTTP.
 *
 * - `stdio`: reads `process.stdin`, writes frames only to `process.stdout` (console output goes to
 *   stderr), and resolves when stdin ends — a server whose client vanished exits instead of piling up.
 * - `http`: listens on `host:port/path`, both protocol eras on one endpoint. With `block` (the default)
 *   it resolves once the server was closed by SIGINT or SIGTERM; with `block: false` it returns the
 *   running server to `close()`.
 */
export async function serve(
  server: Connectable,
  options: ServeOptions & { transport: "http"; block: false },
): Promise<RunningServer>;
export async function serve(server: Connectable, options?: ServeOptions): Promise<RunningServer | undefined>;
export async function serve(
  server: Connectable,
  options: ServeOptions = {},
): Promise<RunningServer | undefined> {
  if ((options.transport ?? "stdio") === "stdio") {
    await serveStdio(
      async (transport) => {
        await server.connect(transport);
      },
      { exitOnClose: false },
    );
    return undefined;
  }
  const handle = await listen({
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 8080,
    path: options.path ?? "/mcp",
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.eras ? { eras: options.eras } : {}),
    ...(options.protect
      ? {
          authenticate: (request: Request) => options.protect!.authenticate(request),
          otherRoutes: (request: Request) => options.protect!.serveMetadata(request),
        }
      : {}),
    connect: async (transport) => {
      await server.connect(transport);
    },
  });
  (options.onListening ?? ((url) => process.stderr.write(`mcpkit: serving MCP on ${url}\n`)))(handle.url);
  if (options.block === false) return handle;
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void handle.close().then(resolve, resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    handle.server.once("close", () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    });
  });
  return handle;
}
