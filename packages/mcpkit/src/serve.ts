import type { Readable, Writable } from "node:stream";
import type { Transport } from "@mcpkit/jsonrpc";
import type { ServerStores } from "@mcpkit/server";
import type { EventStore, ServerLike, SessionStore, SharedSessionState } from "@mcpkit/transport-http";
import type { HttpServerHandle, ListenOptions } from "@mcpkit/transport-http/node";
import { type ServeStdioOptions, serveStdio } from "@mcpkit/transport-stdio";

/**
 * Anything with `connect(transport)`: an `@mcpkit/server` server, or another implementation. `useStores`
 * (an `@mcpkit/server` server has it) is needed only with {@link ServeOptions.store}. With `handle` (an
 * `@mcpkit/server` server has it), HTTP answers each 2026-07-28 request as a call of it, with no
 * connection made for the request.
 */
export interface Connectable {
  /** With a shared `store`, `options.sharedSession` carries a legacy session's state (see `Server.connect`). */
  connect(transport: Transport, options?: { sharedSession?: SharedSessionState }): unknown;
  handle?: ServerLike["handle"];
  useStores?(stores: ServerStores): void;
}

/**
 * The shared stores of a server run as several instances behind a load balancer, as one object:
 * what the server takes (`tasks`, `bus`, `requestStateKey`, see `Server.useStores`) and what the HTTP
 * handler takes (`eventStore`, `sessionStore`). Structural: `redisStore()` of `@mcpkit/redis` returns
 * one, and so can any other implementation of the seams. Every entry is optional.
 */
export interface ServeStore extends ServerStores {
  /** Resumable SSE for legacy streams (`Last-Event-ID` on any instance). */
  eventStore?: EventStore | undefined;
  /** Legacy sessions served by any instance. */
  sessionStore?: SessionStore | undefined;
  /** Called by `serve` once the HTTP server has closed (it owns the store from then on). */
  close?(): Promise<void>;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Default `stdio`. */
  transport?: "stdio" | "http";
  /** stdio: where requests come from instead of `process.stdin` (a test's stream, a socket). */
  stdin?: Readable;
  /** stdio: where frames go instead of `process.stdout`; it is ended when the connection closes. */
  stdout?: Writable;
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
  /**
   * Shared stores, to run this server as one of several instances behind a load balancer without sticky
   * routing: `await redisStore({ url })` of `@mcpkit/redis` fits. The server gets `tasks`, `bus` and
   * `requestStateKey` through its `useStores` before anything is served (so it must not have served
   * anything yet); over HTTP the handler gets `eventStore` and `sessionStore`. `serve` owns the store:
   * it calls `store.close()` after the HTTP server closed (SIGINT/SIGTERM, or the returned handle's
   * `close()`), or, over stdio, once stdin ended.
   * @throws TypeError (the promise rejects) when the server has no `useStores`.
   */
  store?: ServeStore;
}

/** A running HTTP server. */
export type RunningServer = HttpServerHandle;

/**
 * Serves a server over stdio or Streamable HTTP.
 *
 * - `stdio`: reads `process.stdin`, writes frames only to `process.stdout` (console output goes to
 *   stderr), and resolves when stdin ends — a server whose client vanished exits instead of piling up.
 *   `stdin` / `stdout` serve other streams instead (the console is then left alone).
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
  const store = options.store;
  if (store !== undefined) {
    if (typeof server.useStores !== "function") {
      throw new TypeError(
        "serve({ store }) needs a server with useStores() (an @mcpkit/server server); this one has none",
      );
    }
    server.useStores({ tasks: store.tasks, bus: store.bus, requestStateKey: store.requestStateKey });
  }
  if ((options.transport ?? "stdio") === "stdio") {
    try {
      const streams: Pick<ServeStdioOptions, "stdin" | "stdout"> = {};
      if (options.stdin !== undefined) streams.stdin = options.stdin;
      if (options.stdout !== undefined) streams.stdout = options.stdout;
      await serveStdio(
        async (transport) => {
          await server.connect(transport);
        },
        // The console is left alone on streams that are not the process's: its stdout is not the protocol's.
        options.stdout === undefined
          ? { exitOnClose: false, ...streams }
          : { exitOnClose: false, redirectConsole: false, ...streams },
      );
    } finally {
      await store?.close?.();
    }
    return undefined;
  }
  const stores: Partial<ListenOptions> = {};
  if (store?.eventStore !== undefined) stores.eventStore = store.eventStore;
  if (store?.sessionStore !== undefined) stores.sessionStore = store.sessionStore;
  // node:http and the HTTP handler are loaded only to serve over HTTP: `import("mcpkit")` stays light.
  const { listen } = await import("@mcpkit/transport-http/node");
  const listening = await listen({
    ...stores,
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
    connect: async (transport, info) => {
      const sharedSession = info.sharedSession;
      await server.connect(transport, sharedSession === undefined ? undefined : { sharedSession });
    },
    ...(typeof server.handle === "function" ? { server: server as ServerLike } : {}),
  }).catch(async (error: unknown) => {
    await store?.close?.();
    throw error;
  });
  const handle = withStoreClosed(listening, store);
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
  // The HTTP server closed (by a signal or by its owner): the store goes after it, before serve returns.
  if (store?.close !== undefined) await handle.close();
  return handle;
}

/** The handle, whose `close()` (and a close of its server) also closes `store`, after the HTTP server. */
function withStoreClosed(handle: HttpServerHandle, store: ServeStore | undefined): HttpServerHandle {
  if (store?.close === undefined) return handle;
  let closing: Promise<void> | undefined;
  const closeStore = () => {
    closing ??= store.close!();
    return closing;
  };
  handle.server.once("close", () => void closeStore().catch(() => {}));
  return { ...handle, close: () => handle.close().then(closeStore) };
}
