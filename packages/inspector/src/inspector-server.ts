import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkAccess, cookieName } from "./access.js";
import { type ApiContext, handleApi } from "./api.js";
import {
  type ConnectionOptions,
  type ConnectionSummary,
  type InspectorConnection,
  openConnection,
} from "./connection.js";
import { createEventHub } from "./event-hub.js";
import { serveStatic } from "./static-files.js";
import type { InspectorTarget } from "./target.js";

/** Options of {@link startInspector}. */
export interface InspectorOptions extends ConnectionOptions {
  /** Servers to connect to at start, each in its own tab. */
  targets?: InspectorTarget[];
  /** The port on 127.0.0.1 (default 0: a free one). */
  port?: number;
  /** The token (default: 32 random bytes, hex). */
  token?: string;
  /** The folder of the built page (default: the package's `dist/app`). */
  appDir?: string;
}

/** A running inspector. */
export interface RunningInspector {
  /** The URL to open, token included. */
  readonly url: string;
  /** The URL without the token (for tests of the refusals). */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** The connections made from `targets` at start, settled (ready or failed). */
  readonly initial: ConnectionSummary[];
  /** Closes every connection (spawned servers end) and the listener. */
  close(): Promise<void>;
}

/** The built page's folder: `dist/app` beside this file (built) or the package's (sources). */
export function defaultAppDir(): string {
  const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
  const beside = join(here, "app");
  return existsSync(join(beside, "index.html")) ? beside : join(here, "..", "dist", "app");
}

/**
 * Starts the inspector: an HTTP server on 127.0.0.1 only, serving the page and its API to requests
 * that carry the token (see `checkAccess`), and holding the MCP connections the page opens.
 * @throws Error when the page has not been built (`pnpm --filter @mcpkit/inspector build`).
 */
export async function startInspector(options: InspectorOptions = {}): Promise<RunningInspector> {
  const appDir = options.appDir ?? defaultAppDir();
  if (!existsSync(join(appDir, "index.html")))
    throw new Error(
      `the inspector's page is not built (no ${join(appDir, "index.html")}): run pnpm --filter @mcpkit/inspector build`,
    );
  const token = options.token ?? randomBytes(32).toString("hex");
  const hub = createEventHub();
  const connections = new Map<string, InspectorConnection>();
  let seq = 0;
  const ctx: ApiContext = {
    connections,
    open(target) {
      const id = `c${++seq}`;
      const connection = openConnection(id, target, hub, options);
      connections.set(id, connection);
      return connection;
    },
  };
  let port = 0;
  const server: Server = createServer((req, res) => {
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("referrer-policy", "no-referrer");
    res.setHeader("x-frame-options", "DENY");
    const decision = checkAccess(req, token, port);
    if (!decision.allowed) {
      res.writeHead(403, { "content-type": "text/plain; charset=utf-8" });
      res.end(`403 forbidden: ${decision.reason}\n`);
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (decision.fromUrl) {
      res.setHeader("set-cookie", `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`);
      if (req.method === "GET" && !url.pathname.startsWith("/api/")) {
        // The token leaves the address bar (and the history) once the cookie holds it.
        url.searchParams.delete("token");
        res.writeHead(302, { location: url.pathname + url.search });
        res.end();
        return;
      }
    }
    if (url.pathname === "/api/events") {
      hub.attach(res);
      return;
    }
    if (url.pathname.startsWith("/api/")) {
      void handleApi(req, res, url.pathname, ctx);
      return;
    }
    if (req.method !== "GET") {
      res.writeHead(405).end();
      return;
    }
    void serveStatic(appDir, url.pathname, res).then((served) => {
      if (!served) res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const initial: ConnectionSummary[] = [];
  for (const target of options.targets ?? []) initial.push(await ctx.open(target).connect());
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    initial,
    async close() {
      hub.close();
      await Promise.all([...connections.values()].map((c) => c.close()));
      connections.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
