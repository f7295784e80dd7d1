import type {
  ReadResourceResult,
  ServerCapabilities,
  Skill,
  SkillFrontmatter,
  SkillsCapability,
} from "@mcpkit/protocol";
import { SKILLS_EXTENSION_ID } from "@mcpkit/protocol";
import type { CallOptions } from "./options.js";
import type { SkillsReader } from "./skills-reader.js";

export { SkillVerificationError, type SkillVerificationReason } from "./skill-verification-error.js";

/** The part of a `Client` the skills client uses (a structural type: any client with these works). */
export interface SkillsHost {
  request(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>;
  readonly capabilities: ServerCapabilities | undefined;
}

/** A verified file of a loaded skill. */
export interface SkillFile {
  uri: string;
  /** The raw bytes, verified against the entry's size and digest (unless the skill is `dynamic`). */
  bytes: Uint8Array;
  /** The bytes as UTF-8 text, when the server sent text. */
  text: string | undefined;
  mimeType: string | undefined;
}

/** A skill loaded through the verification path: its verified SKILL.md and the entry it is held against. */
export interface LoadedSkill {
  /** The entry the skill was loaded from; every later file read is checked against it. */
  readonly skill: Skill;
  /** The SKILL.md text (verified). */
  readonly text: string;
  /** The frontmatter parsed from the SKILL.md (equal to the entry's). */
  readonly frontmatter: SkillFrontmatter;
  /** The Markdown after the frontmatter. */
  readonly body: string;
  /**
   * Reads one of the skill's files, relative to the skill's root (`references/FORMS.md`) or by URI, and
   * verifies it against the held entry. Fetches only when asked (never ahead of need).
   * @throws SkillVerificationError `unlisted` for a file the entry's `resources` does not list (while a
   *   skill is held, an unlisted file is a change to it), `size`/`digest` for content that differs.
   */
  readFile(pathOrUri: string, options?: CallOptions): Promise<SkillFile>;
}

/** Client side of the Skills extension (`io.modelcontextprotocol/skills`). */
export interface SkillsClient {
  /** The server's extension settings, or undefined when it did not declare the extension. */
  readonly capability: SkillsCapability | undefined;
  /**
   * Every entry of `skills/list`, all pages. Entries that break the extension's rules are left out and
   * reported to `onError` (a host must not load them). Reads no skill file.
   * @throws Error when the server did not declare the extension.
   */
  list(options?: CallOptions): Promise<Skill[]>;
  /**
   * `skills/get`: the current entry of one skill, by its SKILL.md URI (also for skills a listing left out).
   * @throws McpError -32602 when the server serves no such skill; SkillVerificationError `entry` for an
   *   unusable entry; Error when the server did not declare the extension.
   */
  get(uri: string, options?: CallOptions): Promise<Skill>;
  /**
   * Loads a skill: reads its SKILL.md and verifies size, digest (unless `resources` is `"dynamic"`) and
   * frontmatter against the entry (given, or fetched with `skills/get` for a URI). Reads nothing else.
   * @throws SkillVerificationError when the content does not match the entry; nothing of it is returned.
   */
  load(skill: Skill | string, options?: CallOptions): Promise<LoadedSkill>;
}

/** The server's Skills extension settings, or undefined when it did not declare the extension. */
function skillsCapability(host: SkillsHost): SkillsCapability | undefined {
  const value = (host.capabilities?.extensions as Record<string, unknown> | undefined)?.[SKILLS_EXTENSION_ID];
  return typeof value === "object" && value !== null ? (value as SkillsCapability) : undefined;
}

/**
 * The skills of the server behind `host` (usually a `Client`). Nothing is fetched until asked: listing
 * reads entries only, loading reads the SKILL.md only, and each supporting file is read when asked for.
 * Every read is verified against the entry held (size, SHA-256 digest, SKILL.md frontmatter); a mismatch
 * throws {@link SkillVerificationError} and the content is not returned.
 *
 * The verification code (frontmatter parser, SHA-256) is imported on the first call, not with the client.
 * @see https://modelcontextprotocol.io/seps/2640-skills-extension
 */
export function createSkillsClient(
  host: SkillsHost,
  options: { onError?: (error: unknown) => void } = {},
): SkillsClient {
  const onError = options.onError ?? (() => {});
  const requireDeclared = (): void => {
    if (skillsCapability(host) === undefined) {
      throw new Error(`The server did not declare the Skills extension (${SKILLS_EXTENSION_ID})`);
    }
  };
  let reader: Promise<SkillsReader> | undefined;
  const open = (): Promise<SkillsReader> =>
    (reader ??= import("./skills-reader.js").then((m) =>
      m.createSkillsReader(host, onError, requireDeclared),
    ));
  return {
    get capability() {
      return skillsCapability(host);
    },
    // The reader checks the declaration again itself; a server that did not declare the extension gets
    // the same error either way.
    list: async (call) => (await open()).list(call),
    get: async (uri, call) => (await open()).get(uri, call),
    load: async (skill, call) => (await open()).load(skill, call),
  };
}
