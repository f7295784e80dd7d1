// The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): a server serves skills — a SKILL.md
// with YAML frontmatter, plus files — and a client lists them, then loads one, checking every file it
// reads against the skill's entry (size, SHA-256 digest, and for SKILL.md the frontmatter).
//
// Server: `registerSkill({ skillMd, files })`, or `registerSkillDirectory(server, dir)` from
// `@mcpkit/server/node` to read a skill folder from disk in one call. Each file is served as a
// `skill://<name>/<path>` resource; `skills/list` and `skills/get` answer the entries.
// Client: `listSkills()` reads entries only, `loadSkill(entry)` reads the SKILL.md only, and
// `readFile(path)` each other file when asked. Content that differs from its entry throws
// `SkillVerificationError` and is never handed out. The extension exists in the 2026-07-28 era only.
// From the shell: `mcpkit skills <target>` and `mcpkit skill <target> NAME [--file PATH]`.
// Run: pnpm --filter @mcpkit/docs example examples/skills.ts
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, createSkillsClient, SkillVerificationError } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { registerSkillDirectory } from "@mcpkit/server/node";

const server = createServer({ name: "skills-demo", version: "1.0.0", skills: { directoryRead: true } });

// A skill written in code.
server.registerSkill({
  skillMd: `---
name: release-notes
description: Write release notes from merged pull requests.
---

List the merged pull requests, group them as in references/STYLE.md, one line each.
`,
  files: { "references/STYLE.md": "Groups: Added, Changed, Fixed. Past tense.\n" },
});

// A skill read from a folder on disk (here a temporary one): SKILL.md plus every file below it.
const dir = await mkdtemp(join(tmpdir(), "skills-demo-"));
try {
  await mkdir(join(dir, "scripts"));
  await writeFile(
    join(dir, "SKILL.md"),
    "---\nname: csv-cleanup\ndescription: Tidy a CSV file before import.\nlicense: MIT\n---\n\nRun scripts/clean.py on the file.\n",
  );
  await writeFile(join(dir, "scripts", "clean.py"), "print('cleaned')\n");
  await registerSkillDirectory(server, dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}

const [clientEnd, serverEnd] = createInMemoryPair();
await server.connect(serverEnd);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientEnd);
try {
  console.log("extension:", JSON.stringify(client.capabilities?.extensions));
  // Entries only: names, frontmatter, and each file's URI, size and digest. No skill file is read yet.
  for (const skill of await client.listSkills()) {
    const files = skill.resources === "dynamic" ? [] : skill.resources;
    console.log(`skill ${skill.frontmatter.name}: ${files.map((f) => `${f.uri} (${f.size} B)`).join(", ")}`);
  }

  // Loading reads the SKILL.md and checks it; other files are read (and checked) when asked for.
  const notes = await client.loadSkill("skill://release-notes/SKILL.md");
  console.log("release-notes body:", notes.body.trim());
  console.log("STYLE.md:", (await notes.readFile("references/STYLE.md")).text?.trim());
  const csv = await client.loadSkill("skill://csv-cleanup/SKILL.md");
  console.log("csv-cleanup license:", csv.frontmatter.license);

  // With `skills: { directoryRead: true }` a skill's folders can be browsed (`resources/directory/read`).
  const listing = (await client.request("resources/directory/read", { uri: "skill://csv-cleanup" })) as {
    resources: Array<{ uri: string; mimeType?: string }>;
  };
  console.log(
    "skill://csv-cleanup holds:",
    listing.resources.map((r) => `${r.uri} ${r.mimeType}`).join(", "),
  );

  // What a host sees when the bytes it receives are not those of the entry (a server or proxy that
  // changed them): the load is refused, nothing of the content is returned.
  const tampered = createSkillsClient({
    request: (method, params, call) => client.request(method, params, call),
    readResource: async (uri, call) => {
      const result = await client.readResource(uri, call);
      const [first] = result.contents as Array<{ uri: string; text: string }>;
      return { contents: [{ ...first!, text: first!.text.replace("one line", "one item") }] };
    },
    get capabilities() {
      return client.capabilities;
    },
  });
  try {
    await tampered.load("skill://release-notes/SKILL.md");
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    console.log(`refused: the ${error.reason} of ${error.uri} differs from its entry`);
  }
} finally {
  await client.close();
  await server.close();
}
