import { TransportError } from "@mcpkit/jsonrpc";
import { discardBody, type ResponseBodyReader } from "../body-reader.js";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Hops followed for one request before giving up (fetch's own limit is 20; an MCP endpoint needs few). */
const MAX_REDIRECTS = 5;

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A redirect to another origin was not followed: the request's headers (the app's `headers`, credentials a
 * fetch wrapper adds, the session id) would have gone to a server the app never named.
 */
export function crossOriginRedirect(status: number, from: URL, to: URL): TransportError {
  return new TransportError(
    `HTTP ${status} from ${from.href} redirects to another origin (${to.href}): not followed, so the request's headers do not go there; use that URL directly if you trust it`,
  );
}

/**
 * One exchange whose redirects the transport follows itself (`redirect: "manual"`), so that none of its
 * headers leaves the endpoint's origin: a redirect on the same origin is followed (at most 5 hops; 303, and
 * 301/302 of a POST, turn into a bodiless GET as fetch does), one to another origin rejects with
 * {@link crossOriginRedirect}. Where the runtime hides redirects (a browser's `opaqueredirect`), the request
 * is sent again with the runtime's own handling, which asks the other origin's CORS consent first.
 */
export async function fetchOnOrigin(
  doFetch: FetchLike,
  url: URL,
  init: RequestInit,
  reader: ResponseBodyReader | undefined,
): Promise<Response> {
  let target = url;
  // The transports' hot path passes `redirect: "manual"` in its literal already: no copy per request.
  let current: RequestInit =
    init.redirect === "manual" ? init : Object.assign({}, init, { redirect: "manual" as const });
  for (let hops = 0; ; hops++) {
    const response = await doFetch(target, current);
    if (response.type === "opaqueredirect")
      return doFetch(target, Object.assign({}, current, { redirect: "follow" }));
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) return response;
    discardBody(response, reader);
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      throw new TransportError(`HTTP ${response.status} from ${target.href} names an invalid Location`);
    }
    if (next.origin !== url.origin) throw crossOriginRedirect(response.status, target, next);
    if (hops >= MAX_REDIRECTS) {
      throw new TransportError(`More than ${MAX_REDIRECTS} redirects from ${url.href}; giving up`);
    }
    const method = (current.method ?? "GET").toUpperCase();
    if (
      response.status === 303
        ? method !== "HEAD"
        : (response.status === 301 || response.status === 302) && method === "POST"
    ) {
      current = Object.assign({}, current, { method: "GET", body: undefined });
    }
    target = next;
  }
}
