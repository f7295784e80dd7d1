// The Skills extension's names shared by both sides: the identifier and the limits. The rules (a skill's
// name, the shape of an entry) are in skill-rules.ts, part of the `@mcpkit/protocol/skill-content` entry.

/**
 * Identifier of the Skills extension, the key of its entry in `capabilities.extensions`.
 * @see https://modelcontextprotocol.io/seps/2640-skills-extension
 */
export const SKILLS_EXTENSION_ID = "io.modelcontextprotocol/skills";

/** The file every skill has at its root. */
export const SKILL_MD = "SKILL.md";

/** The MIME type of a directory resource (`resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/**
 * The per-skill limits every host accepts: entries of `resources` (SKILL.md included) and the sum of
 * their sizes. Servers should not serve more.
 */
export const SKILL_LIMITS = { resources: 512, totalBytes: 16 * 1024 * 1024 } as const;
