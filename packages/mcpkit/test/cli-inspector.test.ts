// `mcpkit inspector` and `mcpkit test` (issue 29) against the reference server-everything over stdio.
// The page itself is tested in @mcpkit/inspector (in Chromium); here the command's targets, URL and token.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serverEverythingEntry } from "@mcpkit/peers";
import { afterAll, describe, expect, it } from "vitest";
import { runInspectorCommand } from "../src/cli/inspector-command.js";
import { main } from "../src/cli/main.js";

const dir = mkdtempSync(join(tmpdir(), "mcpkit-cli-inspector-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A stand-in page: the command's job is the server, the targets and the token.
writeFileSync(join(dir, "index.html"), "<!doctype html><title>page</title>");
const crashing = fileURLToPath(new URL("../../inspector/test/fixtures/crashing-server.mjs", import.meta.url));

function capture() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      env: process.env,
      cwd: dir,
    },
  };
}

/** Runs the command until `check` has run against the printed URL. */
async function withInspector(argv: string[], check: (url: URL, stderr: string) => Promise<void>) {
  const c = capture();
  const stop = new AbortController();
  const running = runInspectorCommand(argv, c.io, { signal: stop.signal, appDir: dir });
  try {
    await expect.poll(() => c.out.stdout, { timeout: 20_000 }).toMatch(/open http/);
    const url = new URL(/open (\S+)/.exec(c.out.stdout)?.[1] ?? "");
    await check(url, c.out.stderr);
  } finally {
    stop.abort();
  }
  expect(await running).toBe(0);
}

describe("mcpkit inspector", () => {
  it("prints a loopback URL with a token, connects the target, and refuses requests without the token", async () => {
    await withInspector(
      ["--no-open", "--", process.execPath, serverEverythingEntry(), "stdio"],
      async (url, stderr) => {
        expect(url.hostname).toBe("127.0.0.1");
        expect(url.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
        expect(stderr).toMatch(/: ready/);
        const api = `${url.origin}/api/connections`;
        expect((await fetch(api)).status).toBe(403);
        const listed = await fetch(api, {
          headers: { authorization: `Bearer ${url.searchParams.get("token")}` },
        });
        const { connections } = (await listed.json()) as {
          connections: Array<{ state: string; era: string }>;
        };
        expect(connections).toHaveLength(1);
        expect(connections[0]).toMatchObject({ state: "ready", era: "legacy" });
      },
    );
  });

  it("opens every server of --config in its own tab, a failing one with its diagnosis", async () => {
    const config = join(dir, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [serverEverythingEntry(), "stdio"] },
          broken: { command: process.execPath, args: [crashing] },
        },
      }),
    );
    await withInspector(["--no-open", "--config", config], async (url, stderr) => {
      expect(stderr).toMatch(/everything: ready/);
      expect(stderr).toMatch(/broken: failed \(process exited/);
      const listed = await fetch(`${url.origin}/api/connections`, {
        headers: { authorization: `Bearer ${url.searchParams.get("token")}` },
      });
      const { connections } = (await listed.json()) as { connections: Array<{ label: string }> };
      expect(connections.map((c) => c.label)).toEqual(["everything", "broken"]);
    });
  });

  it("refuses a bad option with the usage", async () => {
    const c = capture();
    expect(await runInspectorCommand(["--mode", "ftp"], c.io)).toBe(2);
    expect(c.out.stderr).toMatch(/--mode: ftp is not/);
  });
});

describe("mcpkit test", () => {
  it("runs a collection headless: TAP on stdout, exit 0, and exit 1 when an assertion fails", async () => {
    const good = join(dir, "good.json");
    writeFileSync(
      good,
      JSON.stringify({
        steps: [
          { call: "get-sum", arguments: { a: 2, b: 40 }, expect: { matches: { "content[0].text": "42" } } },
        ],
      }),
    );
    const pass = capture();
    expect(
      await main(["test", good, "--", process.execPath, serverEverythingEntry(), "stdio"], pass.io),
    ).toBe(0);
    expect(pass.out.stdout).toMatch(/^TAP version 14\n1\.\.1\nok 1 - call get-sum\n/);
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        target: { kind: "stdio", command: process.execPath, args: [serverEverythingEntry(), "stdio"] },
        steps: [
          {
            name: "off by one",
            call: "get-sum",
            arguments: { a: 2, b: 40 },
            expect: { matches: { "content[0].text": "43" } },
          },
        ],
      }),
    );
    const fail = capture();
    expect(await main(["test", bad], fail.io)).toBe(1);
    expect(fail.out.stdout).toContain("not ok 1 - off by one");
  });
});
