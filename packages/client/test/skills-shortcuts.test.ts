// Client.listSkills / getSkill / loadSkill: the Skills extension's calls on the client itself, against a
// real @mcpkit/server, with every request the client sends recorded.
import { createInMemoryPair, type Transport } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../src/client.js";
import { SkillVerificationError } from "../src/skills.js";

const SKILL_MD =
  "---\nname: release-notes\ndescription: Write release notes from merged pull requests\n---\n\nRead references/STYLE.md first.\n";
const STYLE = "One line per change, past tense.\n";
const URI = "skill://release-notes/SKILL.md";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A client connected to a server with one skill (or none); `sent` lists the methods the client sent. */
async function connected(options: { skills?: boolean } = {}) {
  const server = createServer({ name: "s", version: "1" });
  if (options.skills !== false) {
    server.registerSkill({ skillMd: SKILL_MD, files: { "references/STYLE.md": STYLE } });
  } else server.registerResource("file:///x", { name: "x" }, () => "x");
  const [clientEnd, serverEnd] = createInMemoryPair();
  await server.connect(serverEnd);
  const sent: string[] = [];
  const recorded: Transport = {
    traits: clientEnd.traits,
    start: (sink) => clientEnd.start(sink),
    send(message, sendOptions) {
      const method = (message as { method?: unknown }).method;
      if (typeof method === "string") sent.push(method);
      return clientEnd.send(message, sendOptions);
    },
    close: (reason) => clientEnd.close(reason),
  };
  const errors: unknown[] = [];
  const client = createClient({ name: "c", version: "1", onError: (e) => errors.push(e) });
  await client.connect(recorded);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  sent.length = 0;
  return { client, sent, errors };
}

describe("Client skills shortcuts", () => {
  it("lists entries without reading a file, gets one, and loads only its SKILL.md, verified", async () => {
    const { client, sent, errors } = await connected();
    const entries = await client.listSkills();
    expect(entries.map((e) => [e.uri, e.frontmatter.name])).toEqual([[URI, "release-notes"]]);
    expect(sent).toEqual(["skills/list"]);

    expect(await client.getSkill(URI)).toEqual(entries[0]);
    const loaded = await client.loadSkill(entries[0]!);
    expect(loaded.text).toBe(SKILL_MD);
    expect(loaded.frontmatter).toEqual({
      name: "release-notes",
      description: "Write release notes from merged pull requests",
    });
    expect(sent).toEqual(["skills/list", "skills/get", "resources/read"]);

    // A URI is resolved through skills/get first; a file is read only when asked for.
    const byUri = await client.loadSkill(URI);
    expect(byUri.body).toBe("\nRead references/STYLE.md first.\n");
    expect(sent.slice(3)).toEqual(["skills/get", "resources/read"]);
    expect((await byUri.readFile("references/STYLE.md")).text).toBe(STYLE);
    expect(sent.slice(5)).toEqual(["resources/read"]);
    expect(errors).toEqual([]);
  });

  it("refuses an unknown skill (-32602) and a file outside the entry's manifest", async () => {
    const { client } = await connected();
    const unknown = await client.getSkill("skill://nope/SKILL.md").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
    const loaded = await client.loadSkill(URI);
    const outside = await loaded.readFile("references/OTHER.md").catch((e: unknown) => e);
    expect(outside).toBeInstanceOf(SkillVerificationError);
    expect((outside as SkillVerificationError).reason).toBe("unlisted");
  });

  it("says so when the server did not declare the extension, sending nothing", async () => {
    const { client, sent } = await connected({ skills: false });
    await expect(client.listSkills()).rejects.toThrow(
      "The server did not declare the Skills extension (io.modelcontextprotocol/skills)",
    );
    expect(sent).toEqual([]);
  });
});
