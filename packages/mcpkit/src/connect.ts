import type { AuthProvider } from "@mcpkit/auth";
import { type Client, type ClientOptions, type ConnectOptions, createClient } from "@mcpkit/client";
import { createInMemoryPair, type Transport } from "@mcpkit/jsonrpc";
import type { FetchLike } from "@mcpkit/transport-http/node";
import { type SpawnStdioTransportOptions, spawnStdioTransport } from "@mcpkit/transport-stdio";
import { withBearerToken } from "./bearer-fetch.js";

/** A server launched as a child process and spoken to over stdio. */
export interface CommandTarget {
  command: string;
  args?: string[];
  cwd?: string;
  /**
   * Added to the child's environment, which is otherwise minimal (`PATH`, `HOME`, the locale…: see
   * `defaultInheritedEnvNames` of `@mcpkit/transport-stdio`); name here every variable the server needs.
   */
  env?: Record<string, string | undefined>;
}

/**
 * A server in this process (an `@mcpkit/server` server, or anything with `connect(transport)`):
 * {@link connect} joins it to the client through an in-memory pair, for tests and embedding.
 */
export interface InProcessServer {
  connect(transport: Transport): unknown;
}

/**
 * What {@link connect} reaches: a command line as an array (`["npx", "-y", "server"]`), a
 * {@link CommandTarget}, a Streamable HTTP URL (string or URL), a ready {@link Transport}, or a server
 * in this process ({@link InProcessServer}).
 */
export type ConnectTarget = readonly string[] | CommandTarget | string | URL | Transport | InProcessServer;

/** Options of {@link connect}: the client's own options plus how to reach the target. */
export interface ConnectTargetOptions
  extends Partial<Omit<ClientOptions, "name" | "version">>,
    ConnectOptions {
  /** The client's name in `clientInfo`. Default `mcpkit`. */
  name?: string;
  version?: string;
  /** HTTP: headers on every request. */
  headers?: Record<string, string>;
  /**
   * HTTP: sent as `Authorization: Bearer <token>` on every request (a fetch wrapper around `fetch`, outside
   * `oauth`'s: once OAuth holds a token, its own wins).
   */
  bearerToken?: string;
  /**
   * HTTP: OAuth (`createOAuthProvider(…)` from `@mcpkit/auth`), or any `AuthProvider`: the fetch is
   * wrapped with `withAuth`, so tokens are obtained, attached, refreshed and stepped up as the server's
   * challenges ask (a 401/403 is answered and the request re-sent), DPoP included.
   */
  oauth?: AuthProvider;
  /**
   * HTTP: a fetch to use instead of mcpkit's (on Node, `createNodeFetch`'s keep-alive agents). Auth of
   * your own goes here too, as a wrapper: `fetch: withAuth(provider)`.
   */
  fetch?: FetchLike;
  /** stdio: where the child's stderr goes. Default `inherit`. */
  stderr?: SpawnStdioTransportOptions["stderr"];
  /**
   * stdio: give the child the parent's whole environment, secrets included. Default false: only the
   * minimal set plus the target's `env`.
   */
  inheritEnv?: boolean;
}

/** A connected client that also closes itself at the end of an `await using` scope. */
export type ScopedClient = Client & AsyncDisposable;

function isTransport(value: unknown): value is Transport {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Transport).start === "function" &&
    typeof (value as Transport).send === "function"
  );
}

function isInProcessServer(value: unknown): value is InProcessServer {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof URL) &&
    !isTransport(value) &&
    typeof (value as InProcessServer).connect === "function"
  );
}

const VERSION = "0.1.0";

/**
 * Connects to an MCP server and returns a ready client: picks the transport from the target, negotiates
 * the protocol era (modern `server/discover` first, then legacy `initialize`, then — over HTTP — the
 * 2024-11-05 HTTP+SSE transport), and lists nothing until asked. A spawned server is respawned on the
 * next call after a crash when `autoRespawn` is set.
 *
 * ```ts
 * await using client = await connect(["node", "server.js"]);
 * console.log(await client.listTools());
 * ```
 *
 * Given a server of this process (`createServer(…)`), it connects through an in-memory pair: a server is
 * tested with the same client API, no process and no port. Closing the client ends that connection; the
 * server itself stays the caller's.
 * @throws when the server cannot be reached or the handshake fails; nothing is left running then.
 */
export async function connect(
  target: ConnectTarget,
  options: ConnectTargetOptions = {},
): Promise<ScopedClient> {
  const {
    headers,
    bearerToken,
    oauth,
    fetch,
    stderr,
    inheritEnv,
    serverKey,
    signal: _signal,
    name = "mcpkit",
    version = VERSION,
    ...clientOptions
  } = options;
  const url = typeof target === "string" || target instanceof URL ? new URL(String(target)) : undefined;
  // On Node, node:http keep-alive agents instead of the global fetch: far less work per request. Its
  // sockets close with the client (after the app's own onClose).
  // The HTTP transports (and node:http) are loaded only for a URL target: `import("mcpkit")` stays light.
  const httpNode = url ? await import("@mcpkit/transport-http/node") : undefined;
  const nodeFetch = httpNode && !fetch ? httpNode.createNodeFetch() : undefined;
  const appOnClose = clientOptions.onClose;
  const onClose = nodeFetch
    ? async () => {
        try {
          await appOnClose?.();
        } finally {
          nodeFetch.destroy();
        }
      }
    : appOnClose;
  const client = createClient(
    Object.assign({}, clientOptions, { name, version }, onClose ? { onClose } : {}) as ClientOptions,
  );
  const signal = options.signal;
  const withSignal = signal ? { signal } : {};

  if (isInProcessServer(target)) {
    // The pair's server end goes to the server first, so nothing the client sends can arrive unheard.
    const [clientEnd, serverEnd] = createInMemoryPair();
    await target.connect(serverEnd);
    await client.connect(clientEnd, { ...withSignal, ...(serverKey === undefined ? {} : { serverKey }) });
  } else if (isTransport(target)) {
    await client.connect(target, { ...withSignal, ...(serverKey === undefined ? {} : { serverKey }) });
  } else if (url) {
    // Auth is one seam: wrappers around the fetch. The bearer token goes outermost, so OAuth's header wins.
    const { createSseClientTransport, createStreamableHttpClientTransport } = await import(
      "@mcpkit/transport-http"
    );
    let authFetch: FetchLike = fetch ?? nodeFetch!;
    // @mcpkit/auth is loaded only when OAuth is asked for.
    if (oauth) authFetch = (await import("@mcpkit/auth")).withAuth(oauth, { fetch: authFetch });
    if (bearerToken !== undefined) authFetch = withBearerToken(bearerToken, authFetch);
    const base = {
      url,
      headers: { ...headers },
      fetch: authFetch,
      // Reads createNodeFetch's SSE replies from the socket (it declines the responses of any other fetch).
      bodyReader: httpNode!.nodeBodyReader,
    };
    try {
      await client.connect(
        {
          modern: () => createStreamableHttpClientTransport({ ...base, era: "modern" }),
          legacy: () => createStreamableHttpClientTransport({ ...base, era: "legacy" }),
          sse: () => createSseClientTransport(base),
        },
        { ...withSignal, serverKey: serverKey ?? url.origin + url.pathname },
      );
    } catch (error) {
      nodeFetch?.destroy();
      throw error;
    }
  } else {
    const spec: CommandTarget = Array.isArray(target)
      ? { command: (target as readonly string[])[0] ?? "", args: (target as readonly string[]).slice(1) }
      : (target as CommandTarget);
    if (!spec.command) throw new TypeError("connect() was given an empty command");
    const spawnOptions: SpawnStdioTransportOptions = {
      command: spec.command,
      args: spec.args ?? [],
      stderr: stderr ?? "inherit",
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      ...(spec.env === undefined ? {} : { env: spec.env }),
      ...(inheritEnv === undefined ? {} : { inheritEnv }),
    };
    await client.connect(() => spawnStdioTransport(spawnOptions), {
      ...withSignal,
      serverKey: serverKey ?? [spec.command, ...(spec.args ?? [])].join(" "),
    });
  }
  const scoped = client as ScopedClient;
  scoped[Symbol.asyncDispose] = () => client.close();
  return scoped;
}

/**
 * Connects, runs `fn` with the client, and closes the client whatever happens — the scoped form for
 * code that cannot use `await using`.
 */
export async function withClient<T>(
  target: ConnectTarget,
  fn: (client: Client) => Promise<T> | T,
  options?: ConnectTargetOptions,
): Promise<T> {
  const client = await connect(target, options);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}
