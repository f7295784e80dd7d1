import { TransportError } from "@mcpkit/jsonrpc";

/** Node's TLS and certificate error codes that do not start with `ERR_TLS_` / `ERR_SSL_`. */
const CERTIFICATE_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "HOSTNAME_MISMATCH",
]);

const PLAIN: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ECONNRESET: "connection reset by the server",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_SOCKET: "the connection closed unexpectedly",
};

// OpenSSL's raw text, as Node passes it on (code EPROTO, or an ERR_SSL_ one):
// `805C…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/…:350:`.
const OPENSSL_TEXT = /:error:[0-9A-F]+:[^:]*:[^:]*:([^:\n]+):/;

/**
 * The root cause of a failed fetch in a few words, with its code: `connection refused (ECONNREFUSED)`,
 * `host not found (ENOTFOUND)`, `TLS: certificate has expired (CERT_HAS_EXPIRED)`. Fetch implementations
 * bury it: undici throws `TypeError: fetch failed` with the system error as `cause` (an `AggregateError`
 * when every address of a host refused), `createNodeFetch` the same shape.
 */
export function describeNetworkFailure(error: unknown): string {
  const root = rootCause(error);
  const code = typeof root?.code === "string" ? root.code : undefined;
  const message = root?.message ?? String(error);
  if (code === undefined) return message;
  if (PLAIN[code] !== undefined) return `${PLAIN[code]} (${code})`;
  const openssl = OPENSSL_TEXT.exec(message);
  if (openssl) return `TLS: ${openssl[1]!.trim()} (${code})`;
  if (CERTIFICATE_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_")) {
    return `TLS: ${message} (${code})`;
  }
  return `${message} (${code})`;
}

/** A `TransportError` for a fetch that failed before any answer, naming the root cause. */
export function networkError(method: string, url: URL, error: unknown): TransportError {
  return new TransportError(`HTTP ${method} ${url.href} failed: ${describeNetworkFailure(error)}`, {
    cause: error,
  });
}

type Coded = Error & { code?: unknown; errors?: unknown };

/**
 * The deepest error with a `code` along the `cause` chain (following an `AggregateError`'s first error),
 * else the deepest error of all.
 */
function rootCause(error: unknown): Coded | undefined {
  let coded: Coded | undefined;
  let deepest: Coded | undefined;
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && depth < 5; depth++) {
    const current = e as Coded;
    deepest = current;
    if (typeof current.code === "string") coded = current;
    e = Array.isArray(current.errors) && current.errors.length > 0 ? current.errors[0] : current.cause;
  }
  return coded ?? deepest;
}
