// A static file server over the built site, on 127.0.0.1 and a free port, for the Chromium test.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/** A running static server: its origin and a `close()`. */
export interface StaticServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `root` (`/x/` → `/x/index.html`, `/x` → `/x.html` when that exists), answering 404 otherwise. */
export async function serveStatic(root: string): Promise<StaticServer> {
  const server: Server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    const candidates = path.endsWith("/") ? [`${path}index.html`] : [path, `${path}.html`];
    for (const candidate of candidates) {
      try {
        const body = await readFile(join(root, candidate));
        response.writeHead(200, { "content-type": TYPES[extname(candidate)] ?? "application/octet-stream" });
        response.end(body);
        return;
      } catch {}
    }
    response.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
