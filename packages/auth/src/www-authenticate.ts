/**
 * One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): the scheme (as sent) and its
 * auth-params, names lower-cased, quoted values unescaped.
 */
export interface AuthChallenge {
  /** The auth scheme as sent, e.g. `Bearer` or `DPoP`; compare case-insensitively. */
  scheme: string;
  /** The auth-params by lower-case name (`realm`, `error`, `scope`, `resource_metadata`, ...). */
  params: Record<string, string>;
  /** A token68 value when the challenge carries one instead of params. */
  token68?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;

/**
 * Parses a `WWW-Authenticate` header value into its challenges. Tolerant: a malformed tail is dropped
 * rather than failing the whole header, since a client must still find `resource_metadata` in a header
 * that carries other, odd challenges.
 *
 * @see RFC 9110 §11.6.1, RFC 6750 §3, RFC 9449 §7.1
 */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  if (!header) return out;
  let rest = header;
  let current: AuthChallenge | undefined;
  const skip = (re: RegExp) => {
    const m = re.exec(rest);
    if (m) rest = rest.slice(m[0].length);
  };
  while (rest.length > 0) {
    skip(/^[\s,]+/);
    if (rest.length === 0) break;
    const tokenMatch = TOKEN.exec(rest);
    if (!tokenMatch) break;
    const name = tokenMatch[0];
    const after = rest.slice(name.length);
    const eq = /^\s*=\s*/.exec(after);
    // `name=value` continues the current challenge; anything else starts a new one.
    if (current && eq && !/^(=|,|$)/.test(after.slice(eq[0].length))) {
      rest = after.slice(eq[0].length);
      let value: string;
      if (rest.startsWith('"')) {
        let i = 1;
        value = "";
        while (i < rest.length && rest[i] !== '"') {
          if (rest[i] === "\\" && i + 1 < rest.length) i++;
          value += rest[i];
          i++;
        }
        rest = rest.slice(i + 1);
      } else {
        const m = TOKEN.exec(rest);
        value = m ? m[0] : "";
        rest = rest.slice(value.length);
      }
      current.params[name.toLowerCase()] = value;
      continue;
    }
    // A new challenge: scheme, then either a token68 or params.
    current = { scheme: name, params: {} };
    out.push(current);
    rest = after;
    const ws = /^\s+/.exec(rest);
    if (!ws) continue;
    const candidate = rest.slice(ws[0].length);
    const t68 = TOKEN68.exec(candidate);
    // A token68 stands alone up to the next comma; `name=value` (its `=` followed by more) is a param.
    if (t68 && /^\s*(,|$)/.test(candidate.slice(t68[0].length))) {
      current.token68 = t68[0];
      rest = candidate.slice(t68[0].length);
    }
  }
  return out;
}

/** The values of a challenge the MCP client acts on, from the first Bearer or DPoP challenge. */
export interface ResourceChallenge {
  /** The scheme of the chosen challenge (`Bearer` or `DPoP`). */
  scheme: string | undefined;
  /** RFC 9728 §5.1 `resource_metadata`: the URL of the protected resource metadata. */
  resourceMetadata: string | undefined;
  /** Space-separated scopes the resource asks for. */
  scope: string | undefined;
  /** RFC 6750 §3.1 `error`, e.g. `invalid_token`, `insufficient_scope`, or RFC 9449 `use_dpop_nonce`. */
  error: string | undefined;
  /** `error_description`, human-readable. */
  errorDescription: string | undefined;
}

/**
 * Picks the parameters an MCP client needs from a `WWW-Authenticate` header: the first `Bearer` or `DPoP`
 * challenge wins; when both exist, the values are merged (first non-empty wins).
 */
export function readResourceChallenge(header: string | null | undefined): ResourceChallenge {
  const challenges = parseWwwAuthenticate(header).filter((c) => /^(bearer|dpop)$/i.test(c.scheme));
  const pick = (name: string) => challenges.find((c) => c.params[name] !== undefined)?.params[name];
  return {
    scheme: challenges[0]?.scheme,
    resourceMetadata: pick("resource_metadata"),
    scope: pick("scope"),
    error: pick("error"),
    errorDescription: pick("error_description"),
  };
}

function quote(value: string): string {
  // A header value cannot hold CR, LF, NUL or anything past U+00FF (fetch's Headers throws on them), and
  // the values here may come from a token nobody verified yet: every control or non-ASCII character
  // becomes `?`, so the challenge is always sendable and cannot start a header of its own.
  const printable = value.replace(/[^\x20-\x7e]/g, "?");
  return `"${printable.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * Formats one challenge, e.g. `Bearer error="insufficient_scope", scope="a b", resource_metadata="…"`.
 * Params whose value is undefined are left out; every value is quoted, with each control or non-ASCII
 * character replaced by `?` (values may carry text from an unverified token).
 */
export function formatChallenge(scheme: string, params: Record<string, string | undefined>): string {
  const parts = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${quote(v)}`);
  return parts.length > 0 ? `${scheme} ${parts.join(", ")}` : scheme;
}
