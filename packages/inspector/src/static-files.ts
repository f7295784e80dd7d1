import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".ico": "image/x-icon",
};

/** The page's Content-Security-Policy: its own scripts only, images from itself or `data:`, no framing. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * Serves `pathname` from `root` (`/` is `index.html`); a path leaving `root` or a missing file is a 404.
 * Resolves false when nothing was served.
 */
export async function serveStatic(root: string, pathname: string, res: ServerResponse): Promise<boolean> {
  const relative = normalize(decodeURIComponent(pathname === "/" ? "/index.html" : pathname)).replace(
    /^([/\\])+/,
    "",
  );
  const file = join(root, relative);
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return false;
  }
  res.writeHead(200, {
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "content-security-policy": PAGE_CSP,
    "cache-control": "no-store",
  });
  res.end(body);
  return true;
}
