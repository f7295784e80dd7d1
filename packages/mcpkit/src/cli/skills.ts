// `mcpkit skills` and `mcpkit skill`: the server's skills (Skills extension, SEP-2640), listed from their
// entries and printed only after the client verified them.
import type { Client, SkillFile } from "@mcpkit/client";
import { SKILL_MD, type Skill, toBase64 } from "@mcpkit/protocol";
import { type CliArgs, UsageError } from "./args.js";

/** Where the commands write (the CLI's stdout). */
interface Out {
  write(text: string): unknown;
}

/** The skill's path: its SKILL.md URI without the scheme and `/SKILL.md` (the name, unless prefixed). */
export function skillPath(skill: Skill): string {
  const start = skill.uri.indexOf("://");
  return skill.uri.slice(start === -1 ? 0 : start + 3, -(SKILL_MD.length + 1));
}

/**
 * One line per skill: its path, file count, total size in bytes, the short digest of its SKILL.md
 * (`sha256:` and 12 hex digits) and the first line of its description; `(none)` for no skill. A dynamic
 * skill (no stable digest) says `dynamic` instead of the three.
 */
export function formatSkills(skills: readonly Skill[]): string {
  if (skills.length === 0) return "(none)";
  const rows = skills.map((skill) => {
    const description = String(skill.frontmatter.description).split("\n")[0]!;
    if (skill.resources === "dynamic") return [skillPath(skill), "dynamic", "", "", description];
    const files = skill.resources.length;
    const bytes = skill.resources.reduce((sum, r) => sum + r.size, 0);
    const digest = skill.resources.find((r) => r.uri === skill.uri)?.digest ?? "";
    return [
      skillPath(skill),
      `${files} file${files === 1 ? "" : "s"}`,
      `${bytes} bytes`,
      digest.slice(0, "sha256:".length + 12),
      description,
    ];
  });
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 2 ? cell.padStart(widths[i]!) : i < 4 ? cell.padEnd(widths[i]!) : cell))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `mcpkit skills`: every skill the server lists (entries only; no skill file is read). */
export async function listSkillsCommand(client: Client, args: CliArgs, out: Out): Promise<number> {
  const skills = await client.listSkills();
  out.write(`${args.json ? JSON.stringify(skills, null, 2) : formatSkills(skills)}\n`);
  return 0;
}

/**
 * The entry `name` stands for: a SKILL.md URI (fetched with `skills/get`), or the path or frontmatter
 * name of a listed skill.
 * @throws UsageError when no listed skill, or more than one, answers to the name.
 */
async function findSkill(client: Client, name: string): Promise<Skill> {
  if (name.includes("://")) return client.getSkill(name);
  const skills = await client.listSkills();
  const byPath = skills.filter((s) => skillPath(s) === name);
  const found = byPath.length > 0 ? byPath : skills.filter((s) => s.frontmatter.name === name);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    throw new UsageError(
      `no skill "${name}" on this server (it has: ${skills.map(skillPath).join(", ") || "none"})`,
    );
  }
  throw new UsageError(`several skills are named "${name}"; give one of: ${found.map(skillPath).join(", ")}`);
}

function fileJson(file: SkillFile): Record<string, unknown> {
  const json: Record<string, unknown> = { uri: file.uri, size: file.bytes.length };
  if (file.mimeType !== undefined) json.mimeType = file.mimeType;
  if (file.text !== undefined) json.text = file.text;
  else json.blob = toBase64(file.bytes);
  return json;
}

/**
 * `mcpkit skill NAME [--file PATH]`: loads the skill through the client's verification (size, SHA-256
 * digest and frontmatter against its entry) and prints its SKILL.md, or the verified file at PATH.
 * Content that fails verification is never printed: the error ends the command.
 */
export async function showSkillCommand(client: Client, args: CliArgs, out: Out): Promise<number> {
  const entry = await findSkill(client, args.name!);
  const loaded = await client.loadSkill(entry);
  if (args.file === undefined) {
    out.write(args.json ? `${JSON.stringify({ skill: entry, text: loaded.text }, null, 2)}\n` : loaded.text);
    return 0;
  }
  const file = await loaded.readFile(args.file);
  if (args.json) out.write(`${JSON.stringify(fileJson(file), null, 2)}\n`);
  else if (file.text !== undefined) out.write(file.text);
  else
    out.write(
      `[binary ${file.mimeType ?? "application/octet-stream"}, ${file.bytes.length} bytes: ${file.uri}]\n`,
    );
  return 0;
}
