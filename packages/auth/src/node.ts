/**
 * `@mcpkit/auth/node`: the Node-only part of the client side, a loopback listener that receives the
 * authorization server's redirect for a CLI or desktop host, and a token store on disk.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export {
  createFileTokenStore,
  defaultTokenStorePath,
  type FileTokenStore,
  type FileTokenStoreOptions,
} from "./file-token-store.js";

/** Options of {@link createLoopbackRedirect}. */
export interface LoopbackRedirectOptions {
  /** Port on 127.0.0.1; default 0 (ephemeral: loopback redirect URIs may use any port, RFC 8252 §7.3). */
  port?: number;
  /** Callback path; default `/callback`. */
  path?: string;
  /**
   * Shows the authorization URL to the user: open a browser, print it, ... Called by `onRedirect`.
   * Default: print it to stderr.
   */
  openUrl?: (url: URL) => void | Promise<void>;
  /** How long to wait for the browser to come back, ms. Default 300 000 (5 minutes). */
  timeoutMs?: number;
  /** The page shown in the browser once the redirect arrived. */
  successHtml?: string;
}

/** A running loopback redirect listener. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port><path>`: pass it as the provider's `redirectUri`. */
  readonly redirectUri: string;
  /**
   * The provider's `onRedirect`: opens the authorization URL and resolves with the URL the browser was
   * redirected to. Only a callback carrying the authorization URL's `state` counts: any other one is
   * answered 400 and the wait goes on (within `timeoutMs`). Rejects on timeout or abort. One
   * authorization at a time.
   */
  onRedirect(authorizationUrl: URL, context?: { signal?: AbortSignal }): Promise<URL>;
  /** Stops listening. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts an HTTP listener on 127.0.0.1 for the OAuth redirect of a native (CLI/desktop) client, and
 * returns the `redirectUri` / `onRedirect` pair `createOAuthProvider` needs. Only the callback path is
 * answered (everything else gets 404), and only a callback with the awaited `state` is taken (others get
 * 400, and the real one is still awaited). Close it when done.
 *
 * @see RFC 8252 §7.3 (loopback interface redirection)
 */
export async function createLoopbackRedirect(
  options: LoopbackRedirectOptions = {},
): Promise<LoopbackRedirect> {
  const path = options.path ?? "/callback";
  const timeoutMs = options.timeoutMs ?? 300_000;
  const openUrl =
    options.openUrl ??
    ((url: URL) => {
      process.stderr.write(`Open this URL to authorize:\n${url.href}\n`);
    });
  // The authorization being waited for: its `state`, and where the redirect goes once it arrives.
  let waiting: { state: string | null; deliver: (url: URL) => void } | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", redirectUri);
    if (req.method !== "GET" || url.pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    const current = waiting;
    // Anyone on this machine (or a page in the browser) can call the port: a callback that is not the
    // awaited authorization's is refused and the wait goes on, so a forged one cannot end the login.
    if (!current || (current.state !== null && url.searchParams.get("state") !== current.state)) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
      res.end("This is not the authorization this window is waiting for.\n");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      options.successHtml ?? "<!doctype html><p>Authorization complete. You can close this window.</p>",
    );
    waiting = undefined;
    current.deliver(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  let closed = false;

  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    redirectUri,
    async onRedirect(authorizationUrl, context = {}) {
      if (closed) throw new Error("the loopback redirect listener is closed");
      if (waiting) throw new Error("an authorization is already waiting for its redirect");
      const { signal } = context;
      if (signal?.aborted) throw signal.reason;
      let cancel = () => {};
      const arrived = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`no authorization redirect within ${timeoutMs} ms`));
        }, timeoutMs);
        const onAbort = () => {
          clearTimeout(timer);
          waiting = undefined;
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        cancel = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          waiting = undefined;
        };
        waiting = {
          state: authorizationUrl.searchParams.get("state"),
          deliver: (url) => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", onAbort);
            resolve(url);
          },
        };
      });
      try {
        await openUrl(authorizationUrl);
      } catch (error) {
        cancel();
        throw error;
      }
      return arrived;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
