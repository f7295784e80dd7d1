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
   * redirected to. Rejects on timeout or abort. One authorization at a time.
   */
  onRedirect(authorizationUrl: URL, context?: { signal?: AbortSignal }): Promise<URL>;
  /** Stops listening. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts an HTTP listener on 127.0.0.1 for the OAuth redirect of a native (CLI/desktop) client, and
 * returns the `redirectUri` / `onRedirect` pair `createOAuthProvider` needs. Only the callback path is
 * answered; everything else gets 404. Close it when done.
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
  let waiting: ((url: URL) => void) | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", redirectUri);
    if (req.method !== "GET" || url.pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      options.successHtml ?? "<!doctype html><p>Authorization complete. You can close this window.</p>",
    );
    const deliver = waiting;
    waiting = undefined;
    deliver?.(url);
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
        waiting = (url) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(url);
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
