// Every line of the README's CLI block, run as printed against the reference server-everything (issue 27,
// item 5). `npx -y @modelcontextprotocol/server-everything` becomes the installed copy (`node <entry>`: no
// download during tests) and `http://localhost:3001` the one started here; nothing else is changed.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverEverythingEntry, startServerEverythingHttp } from "@mcpkit/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-runner.js";

const README = path.join(import.meta.dirname, "..", "README.md");
const NPX = ["npx", "-y", "@modelcontextprotocol/server-everything"];

/** The fenced block of `lang` that comes first after `heading` in `text`. */
function blockAfter(text: string, heading: string, lang: string): string {
  const from = text.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const open = text.indexOf(`\`\`\`${lang}\n`, from);
  const close = text.indexOf("\n```", open + lang.length + 4);
  return text.slice(open + lang.length + 4, close);
}

/** Splits a command line as a POSIX shell does for these examples: words, and '…' quoted words. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|(\S+)/g)) out.push(match[1] ?? match[2]!);
  return out;
}

/** The words with the npx line swapped for the installed server. */
function local(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (NPX.every((word, k) => argv[i + k] === word)) {
      out.push(process.execPath, serverEverythingEntry());
      i += NPX.length - 1;
    } else out.push(argv[i]!);
  }
  return out;
}

let http: Awaited<ReturnType<typeof startServerEverythingHttp>>;
let scratch: string;
let text: string;

beforeAll(async () => {
  text = await readFile(README, "utf8");
  http = await startServerEverythingHttp({ mode: "streamableHttp" });
  scratch = await mkdtemp(path.join(tmpdir(), "mcpkit-readme-"));
  const config = JSON.parse(blockAfter(text, "## The CLI", "json")) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  for (const entry of Object.values(config.mcpServers)) {
    const [command, ...args] = local([entry.command, ...entry.args]);
    entry.command = command!;
    entry.args = args;
  }
  await writeFile(path.join(scratch, "mcp.json"), JSON.stringify(config));
});

afterAll(async () => {
  await http?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe("the README's CLI examples against server-everything (built CLI, child process)", () => {
  it("each line runs: exit 0, nothing on stderr", async () => {
    const lines = blockAfter(text, "## The CLI", "sh")
      .split("\n")
      .filter((line) => line.startsWith("mcpkit "));
    expect(lines.length).toBeGreaterThanOrEqual(10);
    const base = new URL(http.url).origin;
    for (const line of lines) {
      const argv = local(words(line.replaceAll("http://localhost:3001", base))).slice(1);
      const run = await runCli(argv, { cwd: scratch, env: { MCPKIT_CONFIG_DIR: scratch } });
      expect({ line, code: run.code, stderr: run.stderr }).toEqual({ line, code: 0, stderr: "" });
      expect(run.stdout, line).not.toBe("");
      if (line.includes("--json")) expect(() => JSON.parse(run.stdout), line).not.toThrow();
      if (line.includes("get-sum")) expect(run.stdout, line).toContain("3");
      if (line.includes("--save images")) {
        expect(run.stdout).toMatch(/^\[image\/png, \d+\.\d KB → images\/get-tiny-image-1\.png\]$/m);
        expect(existsSync(path.join(scratch, "images", "get-tiny-image-1.png"))).toBe(true);
      }
    }
  });
});
