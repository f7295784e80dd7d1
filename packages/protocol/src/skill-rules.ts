// The Skills extension's rules shared by both sides: the naming rules of a skill and the shape of a skill
// entry (in the `@mcpkit/protocol/skill-content` entry, loaded only by code that checks skills).
import { SKILL_MD } from "./skills.js";
import type { Skill } from "./types/skills.js";

const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Why `name` breaks the Agent Skills naming rules (1-64 characters, lowercase letters, digits and
 * hyphens, no hyphen first, last or twice in a row), or undefined when it keeps them.
 * @see https://agentskills.io/specification#name-field
 */
export function skillNameProblem(name: string): string | undefined {
  if (name.length < 1 || name.length > 64) return `must be 1-64 characters, not ${name.length}`;
  if (!/^[a-z0-9-]+$/.test(name)) return "may hold only lowercase letters a-z, digits and hyphens";
  if (name.includes("--")) return "may not hold two hyphens in a row";
  if (!SKILL_NAME.test(name)) return "may not begin or end with a hyphen";
  return undefined;
}

/**
 * The parts of a skill's SKILL.md URI (`<scheme>://<skill-path>/SKILL.md`): the skill's root directory
 * URI (no trailing slash) and its name (the last segment of the skill path); undefined for a URI of
 * another shape.
 */
export function skillUriParts(uri: string): { root: string; name: string } | undefined {
  const scheme = uri.indexOf("://");
  if (scheme <= 0 || !uri.endsWith(`/${SKILL_MD}`)) return undefined;
  const root = uri.slice(0, -SKILL_MD.length - 1);
  const segments = root.slice(scheme + 3).split("/");
  const name = segments[segments.length - 1];
  if (name === undefined || segments.some((s) => s === "")) return undefined;
  return { root, name };
}

/**
 * Why `value` is not a usable skill entry (the first rule it breaks), or undefined when it is one: `uri`
 * a SKILL.md URI whose last path segment is `frontmatter.name`; `frontmatter` an object with non-empty
 * `name` and `description`; `resources` `"dynamic"` or a complete array of `{ uri, digest, size }` (each
 * file once, SKILL.md included, every file under the skill's directory, digests `sha256:<hex>`).
 */
export function skillEntryProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "the entry is not an object";
  const entry = value as Partial<Skill>;
  if (typeof entry.uri !== "string") return "uri is missing";
  const parts = skillUriParts(entry.uri);
  if (parts === undefined) return `uri ${entry.uri} does not name a ${SKILL_MD}`;
  const fm = entry.frontmatter;
  if (typeof fm !== "object" || fm === null || Array.isArray(fm)) return "frontmatter is missing";
  if (typeof fm.name !== "string" || fm.name === "") return "frontmatter.name is missing";
  if (typeof fm.description !== "string" || fm.description === "")
    return "frontmatter.description is missing";
  if (fm.name !== parts.name) {
    return `the last segment of ${entry.uri} is not frontmatter.name ${JSON.stringify(fm.name)}`;
  }
  if (entry.resources === "dynamic") return undefined;
  if (!Array.isArray(entry.resources)) return 'resources is neither an array nor "dynamic"';
  const seen = new Set<string>();
  for (const file of entry.resources) {
    if (typeof file !== "object" || file === null || typeof file.uri !== "string") {
      return "a resources item has no uri";
    }
    if (seen.has(file.uri)) return `resources lists ${file.uri} twice`;
    seen.add(file.uri);
    if (!file.uri.startsWith(`${parts.root}/`)) return `${file.uri} is outside the skill's directory`;
    if (typeof file.digest !== "string" || !DIGEST.test(file.digest)) {
      return `the digest of ${file.uri} is not sha256:<64 lowercase hex>`;
    }
    if (!Number.isSafeInteger(file.size) || file.size < 0)
      return `the size of ${file.uri} is not a byte count`;
  }
  if (!seen.has(entry.uri)) return `resources does not list ${entry.uri} itself`;
  return undefined;
}
