import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { connectClient, meta } from "../test/helpers.js";
import { createServer } from "./index.js";

const SKILL_MD =
  "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: '2.1'\n---\n\n# PDF processing\n\nSee references/FORMS.md.\n";
const FORMS = "# Forms\n";
const digest = (s: string | Uint8Array) => `sha256:${createHash("sha256").update(s).digest("hex")}`;

function serverWithSkill(options: { directoryRead?: boolean } = {}) {
  const server = createServer({ name: "s", version: "1", skills: options, pageSize: 1 });
  server.registerSkill({
    skillMd: SKILL_MD,
    files: { "references/FORMS.md": FORMS, "scripts/run.bin": new Uint8Array([0, 255, 1]) },
  });
  return server;
}

const m = () => ({ _meta: meta() });

describe("skills (Skills extension)", () => {
  it("declares the extension (modern only) with the resources capability", async () => {
    const client = await connectClient(serverWithSkill({ directoryRead: true }));
    const discovered = await client.request("server/discover", m());
    expect(discovered.capabilities.extensions["io.modelcontextprotocol/skills"]).toEqual({
      directoryRead: true,
    });
    expect(discovered.capabilities.resources).toBeDefined();
    await client.close();
    const plain = await connectClient(serverWithSkill());
    expect(
      (await plain.request("server/discover", m())).capabilities.extensions["io.modelcontextprotocol/skills"],
    ).toEqual({});
    await plain.close();
  });

  it("lists entries with frontmatter verbatim, digests and sizes of the raw bytes, and cache hints", async () => {
    const client = await connectClient(serverWithSkill());
    const listed = await client.request("skills/list", m());
    expect(listed).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "public" });
    expect(listed.skills).toEqual([
      {
        uri: "skill://pdf-processing/SKILL.md",
        frontmatter: {
          name: "pdf-processing",
          description: "Extract, fill, and assemble PDF documents",
          metadata: { version: "2.1" },
        },
        resources: [
          {
            uri: "skill://pdf-processing/SKILL.md",
            digest: digest(SKILL_MD),
            size: Buffer.byteLength(SKILL_MD),
          },
          { uri: "skill://pdf-processing/references/FORMS.md", digest: digest(FORMS), size: 8 },
          {
            uri: "skill://pdf-processing/scripts/run.bin",
            digest: digest(new Uint8Array([0, 255, 1])),
            size: 3,
          },
        ],
      },
    ]);
    // The files are resources: SKILL.md as text/markdown named and described by its frontmatter.
    const read = await client.request("resources/read", { uri: "skill://pdf-processing/SKILL.md", ...m() });
    expect(read.contents[0]).toMatchObject({ mimeType: "text/markdown", text: SKILL_MD });
    const bin = await client.request("resources/read", {
      uri: "skill://pdf-processing/scripts/run.bin",
      ...m(),
    });
    expect(bin.contents[0].blob).toBe(Buffer.from([0, 255, 1]).toString("base64"));
    const resources = await client.request("resources/list", { ...m() });
    expect(resources.resources[0]).toMatchObject({
      uri: "skill://pdf-processing/SKILL.md",
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
      mimeType: "text/markdown",
    });
    await client.close();
  });

  it("gets one entry by URI, and answers -32602 for a URI it does not serve", async () => {
    const client = await connectClient(serverWithSkill());
    const got = await client.request("skills/get", { uri: "skill://pdf-processing/SKILL.md", ...m() });
    expect(got.skill.uri).toBe("skill://pdf-processing/SKILL.md");
    expect(got).toMatchObject({ ttlMs: 0, cacheScope: "public" });
    expect(got.nextCursor).toBeUndefined();
    await expect(
      client.request("skills/get", { uri: "skill://nope/SKILL.md", ...m() }),
    ).rejects.toMatchObject({
      code: -32602,
      message: "No skill is served at skill://nope/SKILL.md",
    });
    await client.close();
  });

  it("pages skills/list without splitting an entry", async () => {
    const server = createServer({ name: "s", version: "1", pageSize: 1 });
    for (const name of ["one", "two"])
      server.registerSkill({ skillMd: `---\nname: ${name}\ndescription: d\n---\n` });
    const client = await connectClient(server);
    const first = await client.request("skills/list", m());
    expect(first.skills.map((s: any) => s.uri)).toEqual(["skill://one/SKILL.md"]);
    const second = await client.request("skills/list", { cursor: first.nextCursor, ...m() });
    expect(second.skills.map((s: any) => s.uri)).toEqual(["skill://two/SKILL.md"]);
    expect(second.nextCursor).toBeUndefined();
    await client.close();
  });

  it("reads directories when enabled: direct children, subdirectories as inode/directory, -32602 otherwise", async () => {
    const client = await connectClient(serverWithSkill({ directoryRead: true }));
    const all: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request("resources/directory/read", {
        uri: "skill://pdf-processing",
        ...(cursor ? { cursor } : {}),
        ...m(),
      });
      all.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor);
    expect(all.map((r) => [r.uri, r.mimeType])).toEqual([
      ["skill://pdf-processing/SKILL.md", "text/markdown"],
      ["skill://pdf-processing/references", "inode/directory"],
      ["skill://pdf-processing/scripts", "inode/directory"],
    ]);
    await expect(
      client.request("resources/directory/read", { uri: "skill://pdf-processing/SKILL.md", ...m() }),
    ).rejects.toMatchObject({ code: -32602 });
    await client.close();
    const off = await connectClient(serverWithSkill());
    await expect(
      off.request("resources/directory/read", { uri: "skill://pdf-processing", ...m() }),
    ).rejects.toMatchObject({ code: -32601 });
    await off.close();
  });

  it("refuses a skill that breaks the rules at registration, naming the rule", () => {
    const server = createServer({ name: "s", version: "1" });
    const md = (fm: string) => `---\n${fm}\n---\n`;
    expect(() => server.registerSkill({ skillMd: "no frontmatter" })).toThrow(
      /must begin with YAML frontmatter/,
    );
    expect(() => server.registerSkill({ skillMd: md("description: d") })).toThrow(/needs a name/);
    expect(() => server.registerSkill({ skillMd: md("name: a") })).toThrow(/needs a description/);
    expect(() => server.registerSkill({ skillMd: md("name: Bad_Name\ndescription: d") })).toThrow(
      /lowercase/,
    );
    expect(() =>
      server.registerSkill({ skillMd: md("name: a\ndescription: d"), files: { "../x": "" } }),
    ).toThrow(/must be relative/);
    server.registerSkill({ skillMd: md("name: a\ndescription: d") });
    expect(() => server.registerSkill({ skillMd: md("name: a\ndescription: d") })).toThrow(
      /already registered/,
    );
    // The same name under a prefix is another skill.
    server.registerSkill({ skillMd: md("name: a\ndescription: d"), prefix: "team/x" });
  });

  it("removes a skill and its resources; no skills method exists in a legacy session", async () => {
    const server = createServer({ name: "s", version: "1" });
    const reg = server.registerSkill({ skillMd: "---\nname: a\ndescription: d\n---\n" });
    const client = await connectClient(server);
    reg.remove();
    expect((await client.request("skills/list", m())).skills).toEqual([]);
    await expect(
      client.request("resources/read", { uri: "skill://a/SKILL.md", ...m() }),
    ).rejects.toBeDefined();
    await client.close();
    const legacy = await connectClient(server);
    await legacy.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    await expect(legacy.request("skills/list", {})).rejects.toMatchObject({ code: -32601 });
    await legacy.close();
  });
});
