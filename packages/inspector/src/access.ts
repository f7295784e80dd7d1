import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The name of the cookie that carries the token after the first visit (per port: two inspectors coexist). */
export function cookieName(port: number): string {
  return `mcpkit-inspector-${port}`;
}

/** What {@link checkAccess} decided about one request. */
export type AccessDecision =
  | {
      allowed: true /** The token came in the URL: set the cookie (and drop it from the address). */;
      fromUrl: boolean;
    }
  | { allowed: false; reason: string };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/**
 * Whether a request may be served: its `Host` is this loopback listener (no DNS rebinding), its `Origin`
 * (when sent) is this page's, a browser's `Sec-Fetch-Site` is not cross-site, and it carries the token in
 * the URL (`?token=`), the cookie, or `Authorization: Bearer`.
 */
export function checkAccess(req: IncomingMessage, token: string, port: number): AccessDecision {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = req.headers.host ?? "";
  if (!allowedHosts.includes(host))
    return { allowed: false, reason: `Host ${host || "(none)"} is not this inspector` };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.some((h) => origin === `http://${h}`))
    return { allowed: false, reason: `Origin ${origin} is not this inspector` };
  const site = req.headers["sec-fetch-site"];
  if (site === "cross-site") return { allowed: false, reason: "a cross-site request" };
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const fromUrl = url.searchParams.get("token");
  if (fromUrl !== null && same(fromUrl, token)) return { allowed: true, fromUrl: true };
  const cookie = readCookie(req.headers.cookie, cookieName(port));
  if (cookie !== undefined && same(cookie, token)) return { allowed: true, fromUrl: false };
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ") && same(auth.slice(7), token)) return { allowed: true, fromUrl: false };
  return { allowed: false, reason: "no valid token (open the URL the inspector printed)" };
}
