import type { CacheHints, PaginatedRequestParams, PaginatedResult, RequestParams, Result } from "./base.js";
import type { Resource } from "./resources.js";

/**
 * The settings of the Skills extension in `capabilities.extensions["io.modelcontextprotocol/skills"]`;
 * an empty object declares the extension with no optional feature.
 * @see https://modelcontextprotocol.io/seps/2640-skills-extension
 */
export interface SkillsCapability {
  /** The server implements `resources/directory/read`. */
  directoryRead?: boolean;
}

/** A file of a skill with the digest and size of its raw bytes. */
export interface SkillResource {
  /** Resource URI of the file, readable with `resources/read`. */
  uri: string;
  /** `sha256:` and 64 lowercase hex characters: the SHA-256 of the file's raw bytes. */
  digest: string;
  /** Length in bytes of the file's raw content (the bytes the digest covers). */
  size: number;
}

/** A SKILL.md's YAML frontmatter as JSON: `name` and `description` always, every other field verbatim. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/**
 * The entry of one skill, the same in `skills/list` and `skills/get`: the URI of its SKILL.md, its
 * frontmatter, and the complete manifest of its files (or `"dynamic"` when no stable digest exists).
 */
export interface Skill {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResource[] | "dynamic";
}

/** Params of `skills/list` (paginated). */
export interface ListSkillsRequestParams extends PaginatedRequestParams {}

/** Result of `skills/list`: one page of entries, with cache hints (2026-07-28). */
export interface ListSkillsResult extends PaginatedResult, CacheHints {
  skills: Skill[];
}

/** Params of `skills/get`: the URI of the skill's SKILL.md. */
export interface GetSkillRequestParams extends RequestParams {
  uri: string;
}

/** Result of `skills/get`: one entry, with cache hints and no cursor. */
export interface GetSkillResult extends Result, CacheHints {
  skill: Skill;
}

/** Params of `resources/directory/read`. */
export interface ReadResourceDirectoryRequestParams extends PaginatedRequestParams {
  uri: string;
}

/** Result of `resources/directory/read`: the direct children (subdirectories as `inode/directory`). */
export interface ReadResourceDirectoryResult extends PaginatedResult {
  resources: Resource[];
}
