// The `@mcpkit/protocol/skill-content` entry: what checks a skill and its content (naming rules, entry
// shape, SKILL.md frontmatter, SHA-256 digests). An entry of its own so that a client loads it only when
// it reads a skill.

// The client's skill reader decodes blob files with it: taken from here, its lazily loaded module does
// not reach the package's main entry (which a bundler would then load up front).
export { fromBase64 } from "./content.js";
export { sha256Digest } from "./sha256.js";
export { frontmatterDifferences, parseSkillMd, SkillFormatError } from "./skill-frontmatter.js";
export { skillEntryProblem, skillNameProblem, skillUriParts } from "./skill-rules.js";
