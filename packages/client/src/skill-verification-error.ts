// Its own file, importing nothing: both the client and the lazily imported skills reader use it, and a
// module they share is loaded up front with everything it imports.

/** What went wrong when a skill's content did not match its entry. */
export type SkillVerificationReason = "entry" | "size" | "digest" | "frontmatter" | "unlisted" | "unreadable";

/**
 * A skill file (or a whole skill) refused on the host side: the entry is unusable, or what the server
 * returned differs from the entry in size, digest or frontmatter, or a file outside the entry's manifest
 * was asked for. The content is never handed out. Recover by calling {@link SkillsClient.get} again (the
 * skill may have changed since its entry was fetched) and loading from the new entry.
 *
 * Local: it never crosses the wire.
 * @see https://modelcontextprotocol.io/seps/2640-skills-extension#integrity-and-verification
 */
export class SkillVerificationError extends Error {
  override name = "SkillVerificationError";
  /** Which check failed. */
  readonly reason: SkillVerificationReason;
  /** The URI of the file (or of the skill's SKILL.md) that failed. */
  readonly uri: string;
  constructor(reason: SkillVerificationReason, uri: string, message: string) {
    super(message);
    this.reason = reason;
    this.uri = uri;
  }
}
