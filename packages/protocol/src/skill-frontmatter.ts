// The YAML frontmatter of a SKILL.md, parsed into JSON. One parser for both sides: the server renders an
// entry's `frontmatter` with it, the client checks a fetched SKILL.md against its entry with it, so the
// two can never disagree about the same bytes.
//
// The YAML itself is read by yaml-subset.ts (the subset frontmatter uses, refused past it with the line).

import { parseYamlBlock, YamlSubsetError } from "./yaml-subset.js";

/** A SKILL.md whose frontmatter is missing or cannot be read. */
export class SkillFormatError extends Error {
  override readonly name = "SkillFormatError";
}

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)(?:\r?\n)?^---[ \t]*(?:\r?\n|$)/m;

/**
 * Splits a SKILL.md into its YAML frontmatter (as a JSON object) and the Markdown body after it.
 * A leading byte order mark is ignored. The frontmatter block must open on the first line.
 * @throws SkillFormatError when there is no `---` delimited block at the start, its YAML is outside the
 *   subset this parser reads (the message names the line), or it is not a mapping.
 * @see https://agentskills.io/specification
 */
export function parseSkillMd(text: string): { frontmatter: Record<string, unknown>; body: string } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = source.startsWith("---") ? FRONTMATTER.exec(source) : null;
  if (match === null || match.index !== 0) {
    throw new SkillFormatError("SKILL.md must begin with YAML frontmatter between two --- lines");
  }
  const frontmatter = parseFrontmatter(match[1] ?? "");
  return { frontmatter, body: source.slice(match[0].length) };
}

/**
 * The fields whose values differ between two frontmatter objects (compared as JSON, key order ignored),
 * sorted; empty when they are identical in content.
 */
export function frontmatterDifferences(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !sameJson(a[key], b[key])).sort();
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/** The frontmatter block as a mapping (an empty block is `{}`), in SkillFormatError's words. */
function parseFrontmatter(source: string): Record<string, unknown> {
  let root: unknown;
  try {
    root = parseYamlBlock(source);
  } catch (error) {
    if (!(error instanceof YamlSubsetError)) throw error;
    throw new SkillFormatError(`SKILL.md frontmatter line ${error.line}: ${error.reason}`);
  }
  if (root === null) return {};
  if (typeof root !== "object" || Array.isArray(root)) {
    throw new SkillFormatError("SKILL.md frontmatter line 1: the frontmatter must be a mapping");
  }
  return root as Record<string, unknown>;
}
