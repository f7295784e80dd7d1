// `mcpkit skills` and `mcpkit skill` against this app, the CLI run as a user runs it: its bin entry
// (packages/mcpkit/src/bin.ts) bundled into one script and started with plain node in a child process.
// Exact output and exit codes; the expected digests are computed here from the files on disk.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { bundleFixture } from "@mcpkit/test-kit";
import { type RunningServer, serve } from "mcpkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEverythingServer, type EverythingServer } from "../src/server.js";
import { registerEverythingSkills, SKILLS_DIR } from "../src/skills.js";
import { bundledMain } from "./harness.js";

const TOUR = path.join(SKILLS_DIR, "everything-tour");
const SKILL_MD = readFileSync(path.join(TOUR, "SKILL.md"));
const FEATURES = readFileSync(path.join(TOUR, "references", "FEATURES.md"));
const sha256 = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const LIST_LINE =
  `everything-tour  2 files  ${SKILL_MD.length + FEATURES.length} bytes  ${sha256(SKILL_MD).slice(0, 19)}  ` +
  "Guides a first look at the everything server, feature by feature, in a useful order.\n";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let cli: string;
/** Runs the bundled CLI with `args`; resolves with its exit code and output (never rejects on exit). */
function mcpkit(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as { code?: unknown }).code;
      if (typeof code !== "number") reject(error);
      else resolve({ code, stdout, stderr });
    });
  });
}

let server: EverythingServer;
let running: RunningServer;
let url: string;
beforeAll(async () => {
  const mcpkitDir = path.dirname(createRequire(import.meta.url).resolve("mcpkit/package.json"));
  cli = await bundleFixture(path.join(mcpkitDir, "src", "bin.ts"));
  server = createEverythingServer({ tickMs: 0 });
  await registerEverythingSkills(server);
  running = await serve(server, { transport: "http", port: 0, block: false, onListening() {} });
  url = running.url;
});
afterAll(async () => {
  await running?.close();
  await server?.close();
});

describe("mcpkit skills", () => {
  it("lists name, files, size, the SKILL.md digest and the description", async () => {
    expect(await mcpkit("skills", url)).toEqual({ code: 0, stdout: LIST_LINE, stderr: "" });
  });

  it("prints the entries with --json", async () => {
    const { code, stdout } = await mcpkit("skills", url, "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      {
        uri: "skill://everything-tour/SKILL.md",
        frontmatter: {
          name: "everything-tour",
          description: "Guides a first look at the everything server, feature by feature, in a useful order.",
          license: "MIT",
        },
        resources: [
          { uri: "skill://everything-tour/SKILL.md", digest: sha256(SKILL_MD), size: SKILL_MD.length },
          {
            uri: "skill://everything-tour/references/FEATURES.md",
            digest: sha256(FEATURES),
            size: FEATURES.length,
          },
        ],
      },
    ]);
  });

  it("works over stdio with main.ts as the child", async () => {
    const main = await bundledMain();
    expect(await mcpkit("skills", "--", process.execPath, main, "stdio", "--skills", SKILLS_DIR)).toEqual({
      code: 0,
      stdout: LIST_LINE,
      stderr: "",
    });
  });
});

describe("mcpkit skill", () => {
  it("prints the SKILL.md byte for byte, by name or by URI", async () => {
    const expected = { code: 0, stdout: SKILL_MD.toString("utf8"), stderr: "" };
    expect(await mcpkit("skill", url, "everything-tour")).toEqual(expected);
    expect(await mcpkit("skill", url, "skill://everything-tour/SKILL.md")).toEqual(expected);
  });

  it("prints another file with --file, and its JSON with --json", async () => {
    expect(await mcpkit("skill", url, "everything-tour", "--file", "references/FEATURES.md")).toEqual({
      code: 0,
      stdout: FEATURES.toString("utf8"),
      stderr: "",
    });
    const json = await mcpkit("skill", url, "everything-tour", "--file", "references/FEATURES.md", "--json");
    expect(JSON.parse(json.stdout)).toEqual({
      uri: "skill://everything-tour/references/FEATURES.md",
      size: FEATURES.length,
      mimeType: "text/markdown",
      text: FEATURES.toString("utf8"),
    });
  });

  it("exits 2 naming the skills it has for an unknown name", async () => {
    expect(await mcpkit("skill", url, "nope")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'mcpkit: no skill "nope" on this server (it has: everything-tour)\n',
    });
  });

  it("exits 1 for a file outside the skill's manifest", async () => {
    expect(await mcpkit("skill", url, "everything-tour", "--file", "scripts/run.sh")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "mcpkit: skill://everything-tour/scripts/run.sh is not a file of the skill skill://everything-tour/SKILL.md\n",
    });
  });

  it("exits 2 for --file on another command", async () => {
    expect(await mcpkit("tools", url, "--file", "x")).toEqual({
      code: 2,
      stdout: "",
      stderr: "mcpkit: --file applies to skill only\n",
    });
  });

  describe("behind a proxy that changes the SKILL.md on its way", () => {
    let proxy: HttpServer;
    let proxyUrl: string;
    const original = "Go in this order";
    const changed = "Go in that order"; // the same length: the size check passes, the digest does not
    beforeAll(async () => {
      proxy = createHttpServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === "string" && name !== "host" && name !== "content-length")
            headers.set(name, value);
        }
        const upstream = await fetch(new URL(req.url ?? "/", url), {
          method: req.method ?? "GET",
          headers,
          ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
        });
        const body = (await upstream.text()).replace(original, changed);
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (name !== "content-length" && name !== "content-encoding") out[name] = value;
        });
        res.writeHead(upstream.status, out).end(body);
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      const address = proxy.address() as { port: number };
      proxyUrl = `http://127.0.0.1:${address.port}${new URL(url).pathname}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => proxy.close(resolve));
    });

    it("exits 1 and prints nothing of it", async () => {
      const tampered = SKILL_MD.toString("utf8").replace(original, changed);
      expect(await mcpkit("skill", proxyUrl, "everything-tour")).toEqual({
        code: 1,
        stdout: "",
        stderr: `mcpkit: skill://everything-tour/SKILL.md hashes to ${sha256(tampered)}, but its skill entry says ${sha256(SKILL_MD)}; not using it\n`,
      });
      // The listing holds only entries, so it is unchanged.
      expect(await mcpkit("skills", proxyUrl)).toEqual({ code: 0, stdout: LIST_LINE, stderr: "" });
    });
  });
});
