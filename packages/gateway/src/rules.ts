import type { NameRule, Profile } from "./types.js";

/** Who is calling, as the gateway established it (an API key, a verified token, or nobody). */
export interface Identity {
  /** The API key's name, the token's `sub`, or `anonymous`. */
  readonly id: string;
  /** The token's granted scopes (none for an API key). */
  readonly scopes: readonly string[];
  /** The token's verified claims (none for an API key). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** True when `name` matches the glob `pattern` (`*` stands for any run of characters, nothing else is special). */
export function matchesGlob(pattern: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === name;
  const parts = pattern.split("*");
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!name.startsWith(first) || name.length < first.length + last.length) return false;
  let at = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = name.indexOf(parts[i] as string, at);
    if (found < 0) return false;
    at = found + (parts[i] as string).length;
  }
  return name.endsWith(last) && name.length - last.length >= at;
}

/** True when a rule lets `name` through: some allow pattern matches it and no deny pattern does. */
export function allows(rule: NameRule, name: string): boolean {
  return rule.allow.some((p) => matchesGlob(p, name)) && !rule.deny.some((p) => matchesGlob(p, name));
}

/** The first profile whose every condition holds for the identity, or undefined. */
export function selectProfile(profiles: readonly Profile[], identity: Identity): Profile | undefined {
  return profiles.find((profile) => {
    const m = profile.match;
    if (m.identities && !m.identities.includes(identity.id)) return false;
    if (m.scopes && !m.scopes.every((s) => identity.scopes.includes(s))) return false;
    if (m.claims && !Object.entries(m.claims).every(([k, v]) => identity.claims[k] === v)) return false;
    return true;
  });
}
