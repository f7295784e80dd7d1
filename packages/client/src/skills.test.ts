import { createInMemoryPair } from "@mcpkit/jsonrpc";
import type { ReadResourceResult } from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";
import { describe, expect, it } from "vitest";
import { createClient } from "./client.js";
import { createSkillsClient, type SkillsHost, SkillVerificationError } from "./skills.js";

const SKILL_MD =
  "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body. See references/FORMS.md.\n";
const FORMS = "Supporting content.\n";

async function connected(options: { declare?: boolean } = {}) {
  const server = createServer({ name: "s", version: "1" });
  if (options.declare !== false) {
    server.registerSkill({ skillMd: SKILL_MD, files: { "references/FORMS.md": FORMS } });
  } else server.registerResource("file:///x", { name: "x" }, () => "x");
  const [clientEnd, serverEnd] = createInMemoryPair();
  await server.connect(serverEnd);
  const client = createClient({ name: "c", version: "1" });
  await client.connect(clientEnd);
  const reads: string[] = [];
  let tamper: ((uri: string, text: string) => string) | undefined;
  // The host the skills client sees: the real client, with every read recorded (and tampered on demand).
  const host: SkillsHost = {
    request: (method, params, call) => client.request(method, params, call),
    async readResource(uri, call) {
      reads.push(uri);
      const result = await client.readResource(uri, call);
      if (tamper === undefined) return result;
      const [first] = result.contents as Array<{ uri: string; text: string }>;
      return { ...result, contents: [{ ...first!, text: tamper(uri, first!.text) }] } as ReadResourceResult;
    },
    get capabilities() {
      return client.capabilities;
    },
  };
  const errors: unknown[] = [];
  const skills = createSkillsClient(host, { onError: (e) => errors.push(e) });
  return {
    skills,
    reads,
    errors,
    tamperWith(fn: (uri: string, text: string) => string) {
      tamper = fn;
    },
    close: () => client.close(),
  };
}

describe("createSkillsClient", () => {
  it("lists entries without reading any skill file, then loads and reads files verified", async () => {
    const t = await connected();
    expect(t.skills.capability).toEqual({});
    const [entry] = await t.skills.list();
    expect(entry!.frontmatter.name).toBe("pdf-processing");
    expect(t.reads).toEqual([]);
    const loaded = await t.skills.load(entry!);
    expect(t.reads).toEqual(["skill://pdf-processing/SKILL.md"]);
    expect(loaded.body).toBe("\nSkill body. See references/FORMS.md.\n");
    const file = await loaded.readFile("references/FORMS.md");
    expect(file.text).toBe(FORMS);
    expect(t.reads).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/references/FORMS.md",
    ]);
    await expect(loaded.readFile("references/OTHER.md")).rejects.toMatchObject({ reason: "unlisted" });
    // A URI is enough: skills/get supplies the entry.
    expect((await t.skills.load("skill://pdf-processing/SKILL.md")).skill.uri).toBe(entry!.uri);
    await t.close();
  });

  it.each([
    ["digest", (text: string) => text.replace("Skill body.", "Evil body!!")],
    ["size", (text: string) => `${text}extra bytes\n`],
    [
      "frontmatter",
      (text: string) => text.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials"),
    ],
  ] as const)("refuses a SKILL.md whose %s does not match its entry", async (reason, change) => {
    const t = await connected();
    const [entry] = await t.skills.list();
    let served = "";
    t.tamperWith((_uri, text) => (served = change(text)));
    if (reason === "frontmatter") {
      // The server's entry agrees with the tampered bytes: only the frontmatter comparison catches it.
      const { sha256Digest } = await import("@mcpkit/protocol/skill-content");
      const bytes = new TextEncoder().encode(change(SKILL_MD));
      const resources = (entry!.resources as Array<{ uri: string; digest: string; size: number }>).map((r) =>
        r.uri === entry!.uri ? { ...r, digest: sha256Digest(bytes), size: bytes.length } : r,
      );
      entry!.resources = resources;
    }
    const error = await t.skills.load(entry!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error).toMatchObject({ reason, uri: "skill://pdf-processing/SKILL.md" });
    expect(served).not.toBe("");
    // Nothing after the refused SKILL.md was read.
    expect(t.reads).toEqual(["skill://pdf-processing/SKILL.md"]);
    await t.close();
  });

  it("refuses to list or get when the server did not declare the extension", async () => {
    const t = await connected({ declare: false });
    expect(t.skills.capability).toBeUndefined();
    await expect(t.skills.list()).rejects.toThrow(/did not declare the Skills extension/);
    await expect(t.skills.get("skill://a/SKILL.md")).rejects.toThrow(/did not declare/);
    await t.close();
  });

  it("drops entries that break the extension's rules, reporting each", async () => {
    const host: SkillsHost = {
      capabilities: { extensions: { "io.modelcontextprotocol/skills": {} } },
      readResource: () => Promise.reject(new Error("no reads expected")),
      request: async () => ({
        skills: [
          { uri: "skill://a/SKILL.md", frontmatter: { name: "b", description: "d" }, resources: "dynamic" },
          { uri: "skill://ok/SKILL.md", frontmatter: { name: "ok", description: "d" }, resources: "dynamic" },
        ],
      }),
    };
    const errors: unknown[] = [];
    const skills = createSkillsClient(host, { onError: (e) => errors.push(e) });
    expect((await skills.list()).map((s) => s.uri)).toEqual(["skill://ok/SKILL.md"]);
    expect(String(errors[0])).toMatch(/Dropped a skill entry: the last segment/);
  });
});
