import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectClient, meta } from "../test/helpers.js";
import { createServer } from "./index.js";
import { loadSkillDirectory, registerSkillDirectory } from "./node.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function skillDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "mcpkit-skill-"));
  dirs.push(dir);
  await writeFile(
    path.join(dir, "SKILL.md"),
    "---\nname: git-workflow\ndescription: Team Git conventions\n---\nBody\n",
  );
  await mkdir(path.join(dir, "references"));
  await writeFile(path.join(dir, "references", "BRANCHES.md"), "main only\n");
  await writeFile(path.join(dir, "logo.png"), new Uint8Array([137, 80, 78, 71]));
  await writeFile(path.join(dir, ".DS_Store"), "x");
  return dir;
}

describe("skills from disk (./node)", () => {
  it("reads a skill directory: SKILL.md and every file below it, dot-files skipped", async () => {
    const definition = await loadSkillDirectory(await skillDir());
    expect(Object.keys(definition.files ?? {})).toEqual(["logo.png", "references/BRANCHES.md"]);
  });

  it("registers it in one call, with digests of the bytes on disk", async () => {
    const server = createServer({ name: "s", version: "1" });
    await registerSkillDirectory(server, await skillDir(), { prefix: "team" });
    const client = await connectClient(server);
    const { skills } = await client.request("skills/list", { _meta: meta() });
    expect(skills[0].uri).toBe("skill://team/git-workflow/SKILL.md");
    const png = skills[0].resources.find((r: { uri: string }) => r.uri.endsWith("logo.png"));
    expect(png).toEqual({
      uri: "skill://team/git-workflow/logo.png",
      digest: `sha256:${createHash("sha256")
        .update(new Uint8Array([137, 80, 78, 71]))
        .digest("hex")}`,
      size: 4,
    });
    await client.close();
  });

  it("refuses a directory without SKILL.md", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "mcpkit-skill-"));
    dirs.push(dir);
    await expect(loadSkillDirectory(dir)).rejects.toThrow(/no readable SKILL.md/);
  });
});
