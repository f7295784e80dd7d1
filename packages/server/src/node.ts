// Node-only helpers of @mcpkit/server (the `./node` entry): reading skills from disk. The root entry
// stays runtime-neutral.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Registered, Server } from "./index.js";
import type { SkillDefinition } from "./skills.js";

/**
 * Reads a skill directory from disk: its SKILL.md and every other file below it (recursively, raw bytes;
 * dot-files and dot-directories such as `.git` are skipped; symbolic links are not followed).
 * @throws Error when the directory has no SKILL.md (the error of the failed read, as `cause`).
 */
export async function loadSkillDirectory(
  dir: string,
  options: { prefix?: string } = {},
): Promise<SkillDefinition> {
  const skillMdPath = path.join(dir, "SKILL.md");
  let skillMd: Uint8Array;
  try {
    skillMd = await readFile(skillMdPath);
  } catch (error) {
    throw new Error(`${dir} is not a skill directory: it has no readable SKILL.md`, { cause: error });
  }
  const files: Record<string, Uint8Array> = {};
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    // Sorted: the manifest's order does not depend on the file system's.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && child !== "SKILL.md") files[child] = await readFile(path.join(dir, child));
    }
  };
  await walk("");
  const definition: SkillDefinition = { skillMd: new Uint8Array(skillMd), files };
  if (options.prefix !== undefined) definition.prefix = options.prefix;
  return definition;
}

/**
 * Reads the skill in `dir` and registers it on `server` in one call (see `Server.registerSkill`).
 * @throws what {@link loadSkillDirectory} and `registerSkill` throw.
 */
export async function registerSkillDirectory(
  server: Server,
  dir: string,
  options: { prefix?: string } = {},
): Promise<Registered> {
  return server.registerSkill(await loadSkillDirectory(dir, options));
}
