import {
  DIRECTORY_MIME_TYPE,
  McpError,
  type Resource,
  SKILL_LIMITS,
  SKILL_MD,
  type Skill,
  type SkillResource,
  type SkillsCapability,
} from "@mcpkit/protocol";
import { parseSkillMd, sha256Digest, skillNameProblem } from "@mcpkit/protocol/skill-content";
import type { CallInfo } from "./internal/context.js";
import { decodeCursor, encodeCursor } from "./internal/cursor.js";
import type { Registry } from "./internal/registry.js";
import type { ServerCore } from "./server-core.js";

type Params = Record<string, unknown>;

/**
 * A skill to serve (Skills extension, SEP-2640): its SKILL.md and its supporting files. Each file becomes
 * a resource at `skill://<prefix>/<name>/<path>`, where `<name>` is the SKILL.md frontmatter's `name`.
 */
export interface SkillDefinition {
  /** The SKILL.md: YAML frontmatter with at least `name` and `description`, then Markdown. */
  skillMd: string | Uint8Array;
  /**
   * Supporting files by path relative to the skill's root, `/`-separated (`references/FORMS.md`). Text as
   * a string (served UTF-8), anything else as bytes. The digests are of these exact bytes.
   */
  files?: Readonly<Record<string, string | Uint8Array>>;
  /**
   * Segments before the skill's name in its path (`acme/billing` serves `skill://acme/billing/refunds/…`);
   * none by default. The first one is the URI's authority.
   */
  prefix?: string;
}

/** Skills-extension settings of a server (`ServerOptions.skills`). */
export interface SkillsOptions {
  /**
   * Serve `resources/directory/read` and declare `directoryRead: true` (the skill roots and each of their
   * subdirectories are directory resources). Off by default, as in the extension.
   */
  directoryRead?: boolean;
}

interface StoredSkill {
  entry: Skill;
  remove: () => void;
}

const utf8 = new TextEncoder();
// `ignoreBOM`: a leading byte order mark is content, and the digest covers it.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=@%]+$/;

const MIME_BY_EXTENSION: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  py: "text/x-python",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  sh: "text/x-shellscript",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  html: "text/html",
  css: "text/css",
  csv: "text/csv",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  pdf: "application/pdf",
};

/** A MIME type for a file name, from its extension; text or bytes decide when the extension is unknown. */
function mimeTypeOf(path: string, isText: boolean): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (ext && MIME_BY_EXTENSION[ext]) ?? (isText ? "text/plain" : "application/octet-stream");
}

function checkRelativePath(path: string, what: string): string[] {
  const segments = path.split("/");
  if (segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\\"))) {
    throw new TypeError(
      `${what}: the file path ${JSON.stringify(path)} must be relative, without . or .. segments`,
    );
  }
  return segments;
}

/**
 * The skills a server serves: their entries (built once, at registration: frontmatter, digests and sizes)
 * and the resources that serve their files. The extension is declared once a skill was registered, or
 * from the start when `ServerOptions.skills` is given (an empty listing is allowed).
 */
export class SkillRegistry {
  readonly skills = new Map<string, StoredSkill>();
  /** Directory URI → its direct children, built on first use after a change. */
  private directories: Map<string, Resource[]> | undefined;
  declared: boolean;
  readonly directoryRead: boolean;

  constructor(
    private readonly registry: Registry,
    options: SkillsOptions | undefined,
  ) {
    this.declared = options !== undefined;
    this.directoryRead = options?.directoryRead === true;
  }

  /** The settings object declared under `capabilities.extensions["io.modelcontextprotocol/skills"]`. */
  capability(): SkillsCapability {
    return this.directoryRead ? { directoryRead: true } : {};
  }

  /**
   * Registers a skill: parses its frontmatter, checks the naming rules, computes every file's digest and
   * size, and registers each file as a resource (SKILL.md as `text/markdown` named and described by its
   * frontmatter). Returns a function that removes the skill and its resources.
   * @throws TypeError for a SKILL.md without readable frontmatter, a missing name or description, a name
   *   that breaks the Agent Skills rules, a bad prefix or file path, or a skill or file URI already served;
   *   RangeError for a skill over the extension's limits (512 files, 16 MiB).
   */
  add(definition: SkillDefinition): { uri: string; remove: () => void } {
    const mdBytes =
      typeof definition.skillMd === "string" ? utf8.encode(definition.skillMd) : definition.skillMd;
    let mdText: string;
    try {
      mdText = typeof definition.skillMd === "string" ? definition.skillMd : strictUtf8.decode(mdBytes);
    } catch (error) {
      throw new TypeError("SKILL.md is not UTF-8 text", { cause: error });
    }
    let frontmatter: Record<string, unknown>;
    try {
      frontmatter = parseSkillMd(mdText).frontmatter;
    } catch (error) {
      throw new TypeError((error as Error).message, { cause: error });
    }
    const { name, description } = frontmatter;
    if (typeof name !== "string" || name === "") throw new TypeError("SKILL.md frontmatter needs a name");
    const what = `Skill ${name}`;
    if (typeof description !== "string" || description === "") {
      throw new TypeError(`${what}: SKILL.md frontmatter needs a description`);
    }
    const nameProblem = skillNameProblem(name);
    if (nameProblem !== undefined) throw new TypeError(`${what}: a skill name ${nameProblem}`);
    const prefix = definition.prefix ?? "";
    const prefixSegments = prefix === "" ? [] : prefix.split("/");
    if (prefixSegments.some((s) => !SEGMENT.test(s))) {
      throw new TypeError(`${what}: the prefix ${JSON.stringify(prefix)} must be /-separated URI segments`);
    }
    const root = `skill://${[...prefixSegments, name].join("/")}`;
    const uri = `${root}/${SKILL_MD}`;
    if (this.skills.has(uri)) throw new TypeError(`A skill ${uri} is already registered`);

    const files: Array<{
      uri: string;
      path: string;
      bytes: Uint8Array;
      content: string | Uint8Array;
      mimeType: string;
    }> = [{ uri, path: SKILL_MD, bytes: mdBytes, content: mdText, mimeType: "text/markdown" }];
    for (const [path, content] of Object.entries(definition.files ?? {})) {
      const segments = checkRelativePath(path, what);
      if (path === SKILL_MD) throw new TypeError(`${what}: give SKILL.md as skillMd, not among the files`);
      const bytes = typeof content === "string" ? utf8.encode(content) : content;
      let served: string | Uint8Array = content;
      if (typeof content !== "string") {
        // Bytes that are UTF-8 text of a text type are served as text (the same bytes, so the same digest).
        const mime = mimeTypeOf(path, false);
        if (mime.startsWith("text/") || mime === "application/json" || mime === "application/yaml") {
          try {
            served = strictUtf8.decode(content);
          } catch {
            served = content;
          }
        }
      }
      const fileUri = `${root}/${segments.map(encodeURIComponent).join("/")}`;
      files.push({
        uri: fileUri,
        path,
        bytes,
        content: served,
        mimeType: mimeTypeOf(path, typeof served === "string"),
      });
    }
    const total = files.reduce((sum, f) => sum + f.bytes.length, 0);
    if (files.length > SKILL_LIMITS.resources || total > SKILL_LIMITS.totalBytes) {
      throw new RangeError(
        `${what} has ${files.length} files and ${total} bytes; the Skills extension's limits are ${SKILL_LIMITS.resources} files and ${SKILL_LIMITS.totalBytes} bytes`,
      );
    }

    const resources: SkillResource[] = files.map((f) => ({
      uri: f.uri,
      digest: sha256Digest(f.bytes),
      size: f.bytes.length,
    }));
    const entry: Skill = { uri, frontmatter: frontmatter as Skill["frontmatter"], resources };
    const removers: Array<() => void> = [];
    try {
      for (const f of files) {
        const isSkillMd = f.uri === uri;
        const config = isSkillMd
          ? { name, description, mimeType: f.mimeType, size: f.bytes.length }
          : { name: f.path, mimeType: f.mimeType, size: f.bytes.length };
        const content = f.content;
        removers.push(this.registry.addResource(f.uri, config, () => content));
      }
    } catch (error) {
      for (const remove of removers) remove();
      throw error;
    }
    const stored: StoredSkill = {
      entry,
      remove: () => {
        for (const remove of removers) remove();
      },
    };
    this.skills.set(uri, stored);
    this.declared = true;
    this.directories = undefined;
    return {
      uri,
      remove: () => {
        if (this.skills.get(uri) !== stored) return;
        this.skills.delete(uri);
        this.directories = undefined;
        stored.remove();
      },
    };
  }

  /** The entry of the skill whose SKILL.md is `uri`, if served. */
  get(uri: string): Skill | undefined {
    return this.skills.get(uri)?.entry;
  }

  /** The direct children of directory `uri` (undefined when it is not a directory of a served skill). */
  children(uri: string): Resource[] | undefined {
    this.directories ??= this.buildDirectories();
    return this.directories.get(uri);
  }

  private buildDirectories(): Map<string, Resource[]> {
    const dirs = new Map<string, Map<string, Resource>>();
    const child = (dir: string, resource: Resource) => {
      let kids = dirs.get(dir);
      if (kids === undefined) dirs.set(dir, (kids = new Map()));
      if (!kids.has(resource.uri)) kids.set(resource.uri, resource);
    };
    for (const { entry } of this.skills.values()) {
      if (entry.resources === "dynamic") continue;
      for (const file of entry.resources) {
        const found = this.registry.resources.get(file.uri)?.descriptor as Resource | undefined;
        // Walk up from the file: each level is a directory resource holding the level below it.
        let uri = file.uri;
        let resource: Resource = found ?? { uri, name: uri.slice(uri.lastIndexOf("/") + 1) };
        for (;;) {
          const slash = uri.lastIndexOf("/");
          const parent = uri.slice(0, slash);
          if (slash <= "skill://".length - 1 || parent === "skill:/") break;
          child(parent, resource);
          uri = parent;
          resource = { uri, name: uri.slice(uri.lastIndexOf("/") + 1), mimeType: DIRECTORY_MIME_TYPE };
        }
      }
    }
    return new Map([...dirs].map(([dir, kids]) => [dir, [...kids.values()]]));
  }
}

/** One page of `items` from `params.cursor` under the cursor kind `key`. */
function pageOf<T>(core: ServerCore, items: T[], key: string, field: string, p: Params): Params {
  const cursor = p.cursor;
  let offset = 0;
  if (cursor !== undefined && cursor !== "") {
    const decoded = typeof cursor === "string" ? decodeCursor(key, cursor) : undefined;
    if (decoded === undefined || decoded > items.length) throw McpError.invalidParams("Invalid cursor");
    offset = decoded;
  }
  const end = offset + core.pageSize;
  const result: Params = { [field]: items.slice(offset, end) };
  if (end < items.length) result.nextCursor = encodeCursor(key, end);
  return result;
}

/**
 * `skills/list`: a page of entries in registration order, with cache hints. An entry is never split
 * across pages.
 * @see https://modelcontextprotocol.io/seps/2640-skills-extension (Listing Skills)
 */
export function listSkills(core: ServerCore, _call: CallInfo, p: Params): Params {
  const entries = [...core.skills.skills.values()].map((s) => s.entry);
  return core.cacheHints(pageOf(core, entries, "skills", "skills", p));
}

/**
 * `skills/get` (the method table checked `params.uri`): the entry of one skill, with cache hints.
 * @throws McpError -32602 when `uri` is not the SKILL.md of a skill this server serves.
 */
export function getSkill(core: ServerCore, _call: CallInfo, p: Params): Params {
  const uri = p.uri as string;
  const skill = core.skills.get(uri);
  if (skill === undefined) throw McpError.invalidParams(`No skill is served at ${uri}`);
  return core.cacheHints({ skill });
}

/**
 * `resources/directory/read` (when `directoryRead` is on): the direct children of a skill directory,
 * subdirectories as `inode/directory`, paginated like `resources/list`.
 * @throws McpError -32602 when `uri` is not a directory resource this server serves.
 */
export function readDirectory(core: ServerCore, _call: CallInfo, p: Params): Params {
  const uri = p.uri as string;
  const children = core.skills.children(uri);
  if (children === undefined) throw McpError.invalidParams(`${uri} is not a directory resource`);
  return pageOf(core, children, "directory", "resources", p);
}
