// The everything server's skills (Skills extension, SEP-2640): every folder of the app's skills/ folder,
// read from disk. Kept apart from server.ts, which stays free of node:* for the in-process users.
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Registered, Server } from "@mcpkit/server";
import { registerSkillDirectory } from "@mcpkit/server/node";

/**
 * The skills folder shipped with the app (`apps/everything-server/skills`). Found beside the running
 * script's folder, so it holds for `src/*.ts` and for the built `dist/main.js` alike; a copy of the script
 * moved elsewhere must be given the folder.
 */
export const SKILLS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "skills");

/**
 * Registers every skill in `dir` on `server` with `registerSkillDirectory`: each subfolder (dot-folders
 * aside) is one skill and must hold a SKILL.md, whose frontmatter names it; its other files are served
 * beside it. In the order of the folder names. Call it before the server is connected, so the extension is declared from the
 * first request.
 * @throws Error naming the folder when `dir` cannot be read, a subfolder has no SKILL.md, or
 *   `registerSkill` refuses a skill (its error as `cause`).
 */
export async function registerEverythingSkills(
  server: Server,
  dir: string = SKILLS_DIR,
): Promise<Registered[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(`cannot read the skills folder ${dir}${typeof code === "string" ? ` (${code})` : ""}`, {
      cause: error,
    });
  }
  const folders = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
  const registered: Registered[] = [];
  for (const folder of folders) {
    const skillDir = path.join(dir, folder);
    try {
      registered.push(await registerSkillDirectory(server, skillDir));
    } catch (error) {
      // Name the folder: the server's message names the skill, which may not match its folder.
      throw new Error(`the skill in ${skillDir}: ${(error as Error).message}`, { cause: error });
    }
  }
  return registered;
}
