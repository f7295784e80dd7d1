import { AuthError } from "../errors.js";

/** Where a host is, as far as its name or IP literal tells (no DNS lookup). */
export type AddressClass = "loopback" | "private" | "link-local" | "reserved" | "public";

function ipv4Class(a: number, b: number): AddressClass {
  if (a === 127 || a === 0) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // RFC 6598 shared address space
  if (a === 169 && b === 254) return "link-local";
  if (a >= 224) return "reserved";
  return "public";
}

function ipv6Class(literal: string): AddressClass {
  const text = literal.toLowerCase();
  // The URL parser writes an embedded IPv4 address as two hex groups: ::ffff:7f00:1, 64:ff9b::a9fe:a9fe.
  const mapped = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text);
  if (mapped) {
    const high = Number.parseInt(mapped[1]!, 16);
    return ipv4Class(high >> 8, high & 0xff);
  }
  if (text === "::1" || text === "::") return "loopback";
  const first = Number.parseInt(text.split(":")[0] || "0", 16);
  if ((first & 0xfe00) === 0xfc00) return "private";
  if ((first & 0xffc0) === 0xfe80) return "link-local";
  if ((first & 0xff00) === 0xff00) return "reserved";
  return "public";
}

/**
 * Classifies a URL's hostname by its literal form: IPv4 and IPv6 addresses by range, `localhost` names
 * as loopback, single-label and `.local` / `.internal` / `.home.arpa` / `.lan` names as private. Any
 * other name counts as public: this does not resolve DNS.
 */
export function addressClass(hostname: string): AddressClass {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return ipv6Class(host.slice(1, -1));
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) return ipv4Class(Number(v4[1]), Number(v4[2]));
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (!host.includes(".") || /\.(local|internal|home\.arpa|lan)$/.test(host)) return "private";
  return "public";
}

function parse(url: string | URL, what: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new AuthError("unsafe_url", `refused ${what} ${String(url)}: not an absolute URL`);
  }
}

/**
 * Checks a URL discovery is about to fetch for the MCP server at `server`: https only (http only to a
 * loopback host, and only when the MCP server is on loopback too), no userinfo, and a loopback, private,
 * link-local or reserved target only when the MCP server's own host is in that same class. Without a
 * `server` (a URL the application configured) only the scheme rule applies, loopback http allowed.
 *
 * @throws {AuthError} `unsafe_url` naming the URL and the rule it broke.
 */
export function checkDiscoveryUrl(url: string | URL, server: URL | undefined, what: string): URL {
  const target = parse(url, what);
  const targetClass = addressClass(target.hostname);
  const serverClass = server ? addressClass(server.hostname) : "loopback";
  if (target.protocol === "http:") {
    if (targetClass !== "loopback" || serverClass !== "loopback") {
      throw new AuthError(
        "unsafe_url",
        `refused ${what} ${target.href}: only https is fetched (http only to loopback, for an MCP server on loopback)`,
      );
    }
  } else if (target.protocol !== "https:") {
    throw new AuthError("unsafe_url", `refused ${what} ${target.href}: only https is fetched`);
  }
  if (target.username || target.password) {
    throw new AuthError(
      "unsafe_url",
      `refused ${what} ${target.href}: a URL with credentials is not fetched`,
    );
  }
  if (server && targetClass !== "public" && targetClass !== serverClass) {
    throw new AuthError(
      "unsafe_url",
      `refused ${what} ${target.href}: a ${targetClass} address is fetched only for an MCP server on a ${targetClass} address (the server is ${server.host})`,
    );
  }
  return target;
}

const PRM_WELL_KNOWN = "/.well-known/oauth-protected-resource";

/**
 * Checks the `resource_metadata` URL of a challenge: on the MCP server's own origin, or (elsewhere) at
 * the documented well-known path `/.well-known/oauth-protected-resource[/…]` without a query; then the
 * rules of {@link checkDiscoveryUrl}.
 *
 * @throws {AuthError} `unsafe_url` naming the URL and the rule it broke.
 */
export function checkResourceMetadataUrl(url: string, server: URL): URL {
  const target = parse(url, "resource_metadata");
  const wellKnown =
    (target.pathname === PRM_WELL_KNOWN || target.pathname.startsWith(`${PRM_WELL_KNOWN}/`)) &&
    target.search === "";
  if (target.origin !== server.origin && !wellKnown) {
    throw new AuthError(
      "unsafe_url",
      `refused resource_metadata ${target.href}: it is taken only on the MCP server's origin (${server.origin}) or at ${PRM_WELL_KNOWN}`,
    );
  }
  return checkDiscoveryUrl(target, server, "resource_metadata");
}

/**
 * Checks an endpoint that credentials (a client secret, an assertion, a code) are sent to: https, or http
 * to a loopback host for development.
 *
 * @throws {AuthError} `unsafe_url` naming the endpoint and the rule.
 */
export function checkCredentialEndpoint(url: string, what: string): URL {
  const target = parse(url, what);
  if (target.protocol === "https:") return target;
  if (target.protocol === "http:" && addressClass(target.hostname) === "loopback") return target;
  throw new AuthError(
    "unsafe_url",
    `refused ${what} ${target.href}: credentials are sent only over https (http only to loopback, for development)`,
  );
}

/** Whether a response is a redirect (a 3xx, or the opaque answer of `redirect: "manual"` in browsers). */
export function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
}
