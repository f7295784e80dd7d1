// The quick starts of the repository's README, run as a newcomer runs them: each block marked
// `<!-- docs-test: NAME -->` is written out as the file it says to save. A `.js` block must parse as plain
// Node 20 JavaScript (`node --check` on the file as written: no `await using`, no types); every block is
// then bundled (to resolve the workspace's packages) and run with plain node, beside the others.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";
import { afterAll, describe, expect, it } from "vitest";

const docsRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(docsRoot, "..", "..", "README.md"), "utf8");

/** The marked blocks of the README, by the file name they are saved as. */
function markedBlocks(markdown: string): Map<string, { lang: string; code: string }> {
  const blocks = new Map<string, { lang: string; code: string }>();
  const pattern = /<!-- docs-test: (\S+) -->\n```(\w+)\n([\s\S]*?)\n```/g;
  for (const match of markdown.matchAll(pattern))
    blocks.set(match[1]!, { lang: match[2]!, code: `${match[3]!}\n` });
  return blocks;
}

const blocks = markedBlocks(readme);
// Sources live under the docs app's node_modules so that "mcpkit" and "zod" resolve as in a user's project.
const sources = join(docsRoot, "node_modules", ".readme-quick-start");
const runDir = mkdtempSync(join(tmpdir(), "mcpkit-readme-"));
mkdirSync(sources, { recursive: true });

afterAll(() => {
  rmSync(runDir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function node(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: runDir, timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** Writes a block as its file, checks plain-JS syntax for `.js`, and bundles it into the run directory. */
async function prepare(name: string): Promise<string> {
  const block = blocks.get(name);
  if (block === undefined) throw new Error(`README.md has no block marked docs-test: ${name}`);
  const asWritten = join(runDir, `as-written-${name.replace(/\.ts$/, ".mjs")}`);
  writeFileSync(asWritten, block.code);
  if (name.endsWith(".js")) {
    const check = await node(["--check", asWritten]);
    if (check.code !== 0) throw new Error(`${name} is not plain Node 20 JavaScript:\n${check.stderr}`);
  }
  // One source per block (client.js and client.ts must not share one: bundles are cached by path).
  const source = join(sources, `${name.replaceAll(".", "-")}.ts`);
  writeFileSync(source, block.code);
  const bundled = await bundleFixture(source);
  const target = join(runDir, name.replace(/\.ts$/, ".mjs"));
  copyFileSync(bundled, target);
  return target;
}

describe("README quick starts, as plain files", () => {
  it("has the marked blocks, and the JavaScript ones are not TypeScript", () => {
    // tsconfig.json (the Node 20 tsconfig) is compiled against by apps/release-check's type matrix.
    expect([...blocks.keys()]).toEqual([
      "weather-server.js",
      "client.js",
      "client.ts",
      "tsconfig.json",
      "weather.test.js",
    ]);
    for (const [name, block] of blocks) expect(block.lang, name).toBe(name.split(".").pop());
  });

  it("the client in JavaScript runs on Node 20 against the server of the quick start", async () => {
    await prepare("weather-server.js");
    const client = await prepare("client.js");
    const run = await node([client]);
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n")).toEqual([
      "{ name: 'weather', version: '1.0.0' } modern 2026-07-28",
      "forecast Tomorrow's weather",
      "1/2",
      `{"city":"Lisbon","condition":"sunny","highC":24} { city: 'Lisbon', condition: 'sunny', highC: 24 } false`,
      "",
    ]);
    expect(run.code).toBe(0);
  });

  it("the TypeScript form (await using) runs too", async () => {
    await prepare("weather-server.js");
    const run = await node([await prepare("client.ts")]);
    expect(run).toEqual({
      code: 0,
      stdout: "{ city: 'Lisbon', condition: 'sunny', highC: 24 }\n",
      stderr: "",
    });
  });

  it("the test of the testing section passes under node --test", async () => {
    const run = await node(["--test", await prepare("weather.test.js")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# pass 1$/m);
  });
});
