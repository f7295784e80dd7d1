import type { GetSkillResult, ListSkillsResult, Skill, SkillFrontmatter } from "@mcpkit/protocol";
import {
  fromBase64,
  frontmatterDifferences,
  parseSkillMd,
  sha256Digest,
  skillEntryProblem,
  skillUriParts,
} from "@mcpkit/protocol/skill-content";
import { InvalidResultError } from "./errors.js";
import { paginate } from "./internal/paginate.js";
import type { CallOptions } from "./options.js";
import { SkillVerificationError } from "./skill-verification-error.js";
import type { SkillFile, SkillsClient, SkillsHost } from "./skills.js";

/** What the reader does for {@link createSkillsClient}: everything but the (synchronous) capability. */
export type SkillsReader = Pick<SkillsClient, "list" | "get" | "load">;

// The skills client's verifying half, imported by createSkillsClient on its first call: with it come the
// SKILL.md frontmatter parser and SHA-256, which a client that never reads a skill does not load.

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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

/** The skills reader over `host` (see `createSkillsClient`, which imports this module when first used). */
export function createSkillsReader(
  host: SkillsHost,
  onError: (error: unknown) => void,
  requireDeclared: () => void,
): SkillsReader {
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

  const client: SkillsReader = {
    async list(call) {
      requireDeclared();
      const out: Skill[] = [];
      const fetchPage = async (cursor: string | undefined) =>
        (await host.request("skills/list", cursor === undefined ? {} : { cursor }, call)) as Record<
          string,
          unknown
        >;
      await paginate("skills/list", fetchPage, (page) => {
        const skills = (page as unknown as ListSkillsResult | undefined)?.skills;
        if (!Array.isArray(skills)) {
          throw new InvalidResultError("skills/list", "skills/list returned no skills array");
        }
        for (const entry of skills) {
          const problem = skillEntryProblem(entry);
          if (problem === undefined) out.push(entry);
          else onError(new InvalidResultError("skills/list", `Dropped a skill entry: ${problem}`));
        }
      });
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
