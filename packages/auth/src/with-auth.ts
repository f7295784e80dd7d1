import type { FetchLike } from "./discovery.js";
import type { AuthProvider } from "./provider.js";

/** Options of {@link withAuth}. */
export interface WithAuthOptions {
  /** The fetch to wrap; default the global one. */
  fetch?: FetchLike;
  /** Re-sends of one request after `onUnauthorized` answered true. Default 4 (401, nonce, step-ups). */
  maxRetries?: number;
}

/**
 * Wraps a `fetch` so every request carries the provider's headers and a 401/403 is answered by the
 * provider (discovery, token, refresh, step-up, DPoP nonce) and the request re-sent with fresh headers,
 * at most `maxRetries` times. Give the result to a transport as its `fetch` (for `@mcpkit/transport-http`:
 * `createStreamableHttpClientTransport({ url, fetch: withAuth(provider) })`).
 *
 * The request body must be re-sendable: a string, `URLSearchParams`, `Blob`, `ArrayBuffer` or typed array
 * (a stream body is sent once; a challenge then returns the 401/403 as is). A `Request` object as input is
 * read for its URL and method only when `init` is given; pass `(url, init)` as transports do.
 * Errors thrown by the provider (an `AuthError`) reject the returned promise.
 */
export function withAuth(provider: AuthProvider, options: WithAuthOptions = {}): FetchLike {
  const inner: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const maxRetries = options.maxRetries ?? 4;
  return async (input, init = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const signal = init.signal ?? undefined;
    const info = { url, method, ...(signal ? { signal } : {}) };
    const replayable = !(init.body instanceof ReadableStream);
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(await provider.headers(info))) headers.set(name, value);
      // Object.assign, not `{ ...init, headers }`: a spread with extra keys is a slow path on Node 20.
      const response = await inner(input, Object.assign({}, init, { headers }));
      provider.onResponse?.(response, info);
      if ((response.status !== 401 && response.status !== 403) || attempt >= maxRetries || !replayable) {
        return response;
      }
      if (
        !(await provider.onUnauthorized(response, { ...info, authorization: headers.get("authorization") }))
      ) {
        return response;
      }
      await response.body?.cancel().catch(() => {});
    }
  };
}
