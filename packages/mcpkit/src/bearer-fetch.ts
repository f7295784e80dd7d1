/** A `fetch`-shaped function, as the HTTP transports take it. */
type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Wraps `inner` so every request carries `Authorization: Bearer <token>`: `connect()`'s `bearerToken`,
 * a fetch wrapper like any other auth (`withAuth` from `@mcpkit/auth` for OAuth). It replaces an
 * `Authorization` header the request already had, whatever its case. A fixed token has nothing to
 * refresh, so a 401 is returned as it is: nothing is retried.
 */
export function withBearerToken(token: string, inner: FetchLike): FetchLike {
  const authorization = `Bearer ${token}`;
  return (input, init) => {
    const given = init?.headers ?? (input instanceof Request ? input.headers : undefined);
    let headers: HeadersInit;
    if (given === undefined || given instanceof Headers || Array.isArray(given)) {
      const all = new Headers(given);
      all.set("authorization", authorization);
      headers = all;
    } else {
      // The transports pass a plain record: copied without its own authorization, of any case.
      const record: Record<string, string> = {};
      for (const key of Object.keys(given)) {
        if (key.length !== 13 || key.toLowerCase() !== "authorization") record[key] = given[key]!;
      }
      record.authorization = authorization;
      headers = record;
    }
    return inner(input, Object.assign({}, init, { headers }));
  };
}
