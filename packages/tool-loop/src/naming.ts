/** The tool-name rule every major provider shares (OpenAI, Anthropic, Gemini): `^[a-zA-Z0-9_-]{1,64}$`. */
export const PROVIDER_TOOL_NAME_PATTERN: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest tool name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

const HASH_SUFFIX_LENGTH = 9; // "_" + 8 hex digits

/**
 * True when `name` is a valid provider tool name at most `maxLength` long.
 */
export function isProviderToolName(name: string, maxLength: number = MAX_TOOL_NAME_LENGTH): boolean {
  return name.length <= maxLength && /^[a-zA-Z0-9_-]+$/.test(name);
}

/**
 * Makes one name valid for providers: every character outside `[a-zA-Z0-9_-]` becomes `_`, and a name
 * longer than `maxLength` is cut and ends in a hash of the whole name (so two long names that share
 * their beginning stay distinct). A valid name comes back unchanged.
 *
 * The result is not reversible by itself; `aggregateTools` keeps the table from the names it hands
 * out back to the server-side names, and resolves clashes the rewriting creates with the hash suffix.
 */
export function sanitizeToolName(name: string, maxLength: number = MAX_TOOL_NAME_LENGTH): string {
  if (isProviderToolName(name, maxLength)) return name;
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool";
  if (replaced.length <= maxLength) return replaced;
  return withHash(replaced, name, maxLength);
}

/** `base`, cut so that `_<hash of original>` fits within `maxLength`, with that suffix. */
export function withHash(base: string, original: string, maxLength: number = MAX_TOOL_NAME_LENGTH): string {
  return `${base.slice(0, Math.max(1, maxLength - HASH_SUFFIX_LENGTH))}_${fnv1a(original)}`;
}

// FNV-1a, 32 bits: tiny, synchronous and the same on every runtime (no crypto import needed).
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
