// The skills the app ships (skills/): registered from disk, listed and loaded through the client's
// verification, in process and from main.ts in a child process.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { connect } from "mcpkit";
import { beforeAll, describe, expect, it } from "vitest";
import { createEverythingServer } from "../src/server.js";
import { registerEverythingSkills, SKILLS_DIR } from "../src/skills.js";
import { bundledMain } from "./harness.js";

const run = promisify(execFile);
const SKILL_MD = readFileSync(path.join(SKILLS_DIR, "everything-tour", "SKILL.md"), "utf8");
const FEATURES = readFileSync(path.join(SKILLS_DIR, "everything-tour", "references", "FEATURES.md"), "utf8");
const URI = "skill://everything-tour/SKILL.md";

describe("the shipped skills, in process", () => {
  it("registers every folder of skills/ and serves each file verified", async () => {
    const server = createEverythingServer({ tickMs: 0 });
    const registered = await registerEverythingSkills(server);
    expect(registered).toHaveLength(1);
    const [clientEnd, serverEnd] = createInMemoryPair();
    await server.connect(serverEnd);
    await using client = createClient({ name: "t", version: "1" });
    await client.connect(clientEnd);
    try {
      expect(client.capabilities?.extensions).toHaveProperty(["io.modelcontextprotocol/skills"]);
      const [entry, ...rest] = await client.listSkills();
      expect(rest).toEqual([]);
      expect(entry).toMatchObject({
        uri: URI,
        frontmatter: { name: "everything-tour", license: "MIT" },
        resources: [
          { uri: URI, size: Buffer.byteLength(SKILL_MD) },
          {
            uri: "skill://everything-tour/references/FEATURES.md",
            size: Buffer.byteLength(FEATURES),
          },
        ],
      });
      const loaded = await client.loadSkill(entry!);
      expect(loaded.text).toBe(SKILL_MD);
      expect((await loaded.readFile("references/FEATURES.md")).text).toBe(FEATURES);
    } finally {
      await server.close();
    }
  });
});

describe("main.ts --skills", () => {
  let entry: string;
  beforeAll(async () => {
    entry = await bundledMain();
  });

  it("serves the skills of the folder it is given", async () => {
    await using client = await connect([process.execPath, entry, "stdio", "--skills", SKILLS_DIR], {
      stderr: "pipe",
    });
    expect((await client.listSkills()).map((s) => s.uri)).toEqual([URI]);
    expect((await client.loadSkill(URI)).text).toBe(SKILL_MD);
  });

  it("exits 1 with one line when the folder is not there", async () => {
    const failure = await run(process.execPath, [entry, "--skills", "/nonexistent/skills"], {
      timeout: 20_000,
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe(
      "everything-server: cannot read the skills folder /nonexistent/skills (ENOENT)\n",
    );
  });
});
