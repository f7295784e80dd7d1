import {
  fromBase64,
  frontmatterDifferences,
  type GetSkillResult,
  type ListSkillsResult,
  parseSkillMd,
  type ReadResourceResult,
  type ServerCapabilities,
  SKILLS_EXTENSION_ID,
  type Skill,
  type SkillFrontmatter,
  type SkillsCapability,
  sha256Digest,
  skillEntryProblem,
  skillUriParts,
} from "@mcpkit/protocol";
import { InvalidResultError } from "./errors.js";
import type { CallOptions } from "./options.js";

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

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function notDeclared(): Error {
  return new Error(`The server did not declare the Skills extension (${SKILLS_EXTENSION_ID})`);
}

function checkedEntry(value: unknown, method: string): Skill {
  const problem = skillEntryProblem(value);
  if (problem !== undefined) {
    const uri = (value as { uri?: unknown } | null)?.uri;
    throw new SkillVerificationError(
      "entry",
      typeof uri === "string" ? uri : "",
      `${method} returned an unusable skill entry: ${problem}`,
    );
  }
  return value as Skill;
}

/**
 * The skills of the server behind `host` (usually a `Client`). Nothing is fetched until asked: listing
 * reads entries only, loading reads the SKILL.md only, and each supporting file is read when asked for.
 * Every read is verified against the entry held (size, SHA-256 digest, SKILL.md frontmatter); a mismatch
 * throws {@link SkillVerificationError} and the content is not returned.
 * @see https://modelcontextprotocol.io/seps/2640-skills-extension
 */
export function createSkillsClient(
  host: SkillsHost,
  options: { onError?: (error: unknown) => void } = {},
): SkillsClient {
  const onError = options.onError ?? (() => {});
  const capability = (): SkillsCapability | undefined => {
    const value = (host.capabilities?.extensions as Record<string, unknown> | undefined)?.[
      SKILLS_EXTENSION_ID
    ];
    return typeof value === "object" && value !== null ? (value as SkillsCapability) : undefined;
  };
  const requireDeclared = () => {
    if (capability() === undefined) throw notDeclared();
  };

  async function readVerified(entry: Skill, uri: string, call: CallOptions | undefined): Promise<SkillFile> {
    const listed = entry.resources === "dynamic" ? undefined : entry.resources.find((r) => r.uri === uri);
    const root = skillUriParts(entry.uri)!.root;
    if (entry.resources !== "dynamic" && listed === undefined) {
      throw new SkillVerificationError("unlisted", uri, `${uri} is not a file of the skill ${entry.uri}`);
    }
    if (entry.resources === "dynamic" && !uri.startsWith(`${root}/`)) {
      throw new SkillVerificationError("unlisted", uri, `${uri} is outside the skill ${entry.uri}`);
    }
    const result = await host.readResource(uri, call);
    const content = result.contents?.find((c) => c.uri === uri) ?? result.contents?.[0];
    let bytes: Uint8Array;
    let text: string | undefined;
    if (content !== undefined && typeof (content as { text?: unknown }).text === "string") {
      text = (content as { text: string }).text;
      bytes = utf8.encode(text);
    } else if (content !== undefined && typeof (content as { blob?: unknown }).blob === "string") {
      try {
        bytes = fromBase64((content as { blob: string }).blob);
      } catch {
        throw new SkillVerificationError("unreadable", uri, `${uri} came back with invalid base64`);
      }
    } else {
      throw new SkillVerificationError("unreadable", uri, `${uri} came back with no text or blob content`);
    }
    if (listed !== undefined) {
      // Size first: a length mismatch is a verification failure without hashing anything.
      if (bytes.length !== listed.size) {
        throw new SkillVerificationError(
          "size",
          uri,
          `${uri} has ${bytes.length} bytes, but its skill entry says ${listed.size}; not using it`,
        );
      }
      const digest = sha256Digest(bytes);
      if (digest !== listed.digest) {
        throw new SkillVerificationError(
          "digest",
          uri,
          `${uri} hashes to ${digest}, but its skill entry says ${listed.digest}; not using it`,
        );
      }
    }
    return { uri, bytes, text, mimeType: content.mimeType };
  }

  const client: SkillsClient = {
    get capability() {
      return capability();
    },
    async list(call) {
      requireDeclared();
      const out: Skill[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = (await host.request("skills/list", cursor === undefined ? {} : { cursor }, call)) as
          | ListSkillsResult
          | undefined;
        if (!Array.isArray(page?.skills)) {
          throw new InvalidResultError("skills/list", "skills/list returned no skills array");
        }
        for (const entry of page.skills) {
          const problem = skillEntryProblem(entry);
          if (problem === undefined) out.push(entry);
          else onError(new InvalidResultError("skills/list", `Dropped a skill entry: ${problem}`));
        }
        cursor = typeof page.nextCursor === "string" && page.nextCursor !== "" ? page.nextCursor : undefined;
        if (cursor !== undefined && seen.has(cursor)) {
          throw new InvalidResultError("skills/list", "skills/list repeated a cursor");
        }
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
      return out;
    },
    async get(uri, call) {
      requireDeclared();
      const result = (await host.request("skills/get", { uri }, call)) as GetSkillResult | undefined;
      const entry = checkedEntry(result?.skill, "skills/get");
      if (entry.uri !== uri) {
        throw new SkillVerificationError(
          "entry",
          uri,
          `skills/get for ${uri} returned the entry of ${entry.uri}`,
        );
      }
      return entry;
    },
    async load(skillOrUri, call) {
      const entry =
        typeof skillOrUri === "string"
          ? await client.get(skillOrUri, call)
          : checkedEntry(skillOrUri, "the entry");
      const file = await readVerified(entry, entry.uri, call);
      let text: string;
      try {
        text = file.text ?? strictUtf8.decode(file.bytes);
      } catch {
        throw new SkillVerificationError("unreadable", entry.uri, `${entry.uri} is not UTF-8 text`);
      }
      let parsed: ReturnType<typeof parseSkillMd>;
      try {
        parsed = parseSkillMd(text);
      } catch (error) {
        throw new SkillVerificationError(
          "frontmatter",
          entry.uri,
          `${entry.uri}: ${(error as Error).message}`,
        );
      }
      const differences = frontmatterDifferences(parsed.frontmatter, entry.frontmatter);
      if (differences.length > 0) {
        throw new SkillVerificationError(
          "frontmatter",
          entry.uri,
          `The frontmatter of ${entry.uri} differs from its skill entry in ${differences.join(", ")}; not loading it`,
        );
      }
      const root = skillUriParts(entry.uri)!.root;
      return {
        skill: entry,
        text,
        frontmatter: parsed.frontmatter as SkillFrontmatter,
        body: parsed.body,
        readFile(pathOrUri, fileCall) {
          const uri = pathOrUri.includes("://") ? pathOrUri : `${root}/${pathOrUri.replace(/^\.?\//, "")}`;
          return readVerified(entry, uri, fileCall);
        },
      };
    },
  };
  return client;
}
