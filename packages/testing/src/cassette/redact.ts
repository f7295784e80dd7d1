/** The value a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

/**
 * Key names whose values are secrets wherever they appear (case-insensitive, `-`/`_` ignored):
 * HTTP credentials, cookies, tokens, keys and passwords. `progressToken` is not a secret (it ties
 * progress to its request) and is kept.
 */
export const DEFAULT_SECRET_KEYS: readonly string[] = [
  "authorization",
  "proxyauthorization",
  "cookie",
  "setcookie",
  "token",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "bearertoken",
  "apikey",
  "xapikey",
  "clientsecret",
  "secret",
  "password",
  "sessiontoken",
];

// Query parameters of a URL whose values are credentials.
const SECRET_QUERY = /^(?:access_?token|token|api_?key|key|sig|signature|secret|password|code|auth)$/i;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/g;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/g;

/** Options of {@link redactValue}: more key names to treat as secrets. */
export interface RedactOptions {
  /** Extra key names (compared case-insensitively, `-`/`_` ignored) whose values are replaced. */
  keys?: readonly string[];
}

// Only a string or number under a secret name is a secret: an object there (a schema property named
// "token") is structure, walked like any other.
function isSecretValue(value: unknown): boolean {
  return (typeof value === "string" && value !== "") || typeof value === "number";
}

function normalKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, "");
}

/** A predicate telling secret key names, from the defaults plus `keys`. */
function secretKeyTest(keys: readonly string[] = []): (key: string) => boolean {
  const names = new Set([...DEFAULT_SECRET_KEYS, ...keys.map(normalKey)]);
  return (key) => {
    const k = normalKey(key);
    if (k === "progresstoken") return false;
    return names.has(k) || k.endsWith("token") || k.endsWith("secret") || k.endsWith("apikey");
  };
}

/** `text` with bearer/basic credentials and secret URL query values replaced. */
function redactText(text: string): string {
  let out = text.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  out = out.replace(URL_IN_TEXT, (url) => redactUrl(url));
  return out;
}

/** `url` with the values of credential query parameters and any user:password replaced. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.password !== "" || parsed.username !== "") {
    parsed.username = REDACTED;
    parsed.password = "";
    changed = true;
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY.test(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? parsed.href : url;
}

/**
 * A deep copy of `value` with secrets replaced by {@link REDACTED}: the values of secret keys (the
 * defaults and `options.keys`, anywhere, `_meta` included), bearer/basic credentials inside strings, and
 * credential query parameters of URLs inside strings. The input is NOT changed.
 */
export function redactValue(value: unknown, options: RedactOptions = {}): unknown {
  const isSecret = secretKeyTest(options.keys);
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return redactText(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      out[key] = isSecret(key) && isSecretValue(child) ? REDACTED : walk(child);
    }
    return out;
  };
  return walk(value);
}

/**
 * The JSON paths in `value` that still hold a secret by the rules of {@link redactValue}: a secret
 * key whose value is not {@link REDACTED}, a bearer credential or a credential URL parameter in a
 * string. Empty for a well-redacted cassette; tests run it over every cassette they write.
 */
export function findSecrets(value: unknown, options: RedactOptions = {}): string[] {
  const isSecret = secretKeyTest(options.keys);
  const found: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === "string") {
      if (redactText(node) !== node) found.push(path);
      return;
    }
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) walk(child, `${path}[${i}]`);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const [key, child] of Object.entries(node)) {
      const childPath = `${path}.${key}`;
      if (isSecret(key) && isSecretValue(child) && child !== REDACTED) found.push(childPath);
      else walk(child, childPath);
    }
  };
  walk(value, "$");
  return found;
}
