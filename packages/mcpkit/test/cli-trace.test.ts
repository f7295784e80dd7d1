// `mcpkit --trace`: the CLI run as a process (its bin bundled, plain node) prints the client's wire trace
// on stderr, one line per JSON-RPC message in and out, while stdout stays the command's output.
import { execFile } from "node:child_process";
import path from "node:path";
import { bundleFixture } from "@mcpkit/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type RunningServer, serve } from "../src/index.js";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let cli: string;
let greeter: string;
let running: RunningServer;

function mcpkit(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as { code?: unknown }).code;
      if (typeof code !== "number") reject(error);
      else resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  cli = await bundleFixture(path.join(import.meta.dirname, "..", "src", "bin.ts"));
  greeter = await bundleFixture(path.join(import.meta.dirname, "fixtures", "greeter-server.ts"));
  const server = createServer({ name: "greeter", version: "1.0.0" });
  server.registerTool(
    "greet",
    { inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    (args: { name: string }) => `Hello, ${args.name}!`,
  );
  running = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
});

afterAll(async () => {
  await running?.close();
});

/** One trace line: elapsed time, arrow, who and what carries it, era and version, the message, size, body. */
const LINE =
  /^\+ *\d+\.\dms (?<arrow>[→←]) client (?<transport>stdio|http) (?<era>modern|legacy) (?<version>\d{4}-\d{2}-\d{2}) (?<what>\S+(?: #\S+| \(notification\))?) (?<size>\d+)B (?<body>\{.*)$/u;

function parse(stderr: string) {
  const lines = stderr.split("\n").filter((l) => l !== "");
  return lines.map((line) => {
    const m = LINE.exec(line);
    expect(m, line).not.toBeNull();
    const g = m!.groups!;
    // The size is the body's size in bytes while the body is not cut.
    if (!g.body!.endsWith("…")) expect(Number(g.size)).toBe(Buffer.byteLength(g.body!));
    return `${g.arrow} ${g.transport} ${g.era} ${g.version} ${g.what!.replace(/#\d+/, "#n")}`;
  });
}

describe("mcpkit --trace", () => {
  it("over stdio: each message in and out on stderr, the result alone on stdout", async () => {
    const run = await mcpkit(
      "call",
      "greet",
      "--trace",
      "--arg",
      "name=Ada",
      "--",
      process.execPath,
      greeter,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello, Ada!\n");
    expect(parse(run.stderr)).toEqual([
      "→ stdio modern 2026-07-28 server/discover #n",
      "← stdio modern 2026-07-28 result #n",
      "→ stdio modern 2026-07-28 tools/list #n",
      "← stdio modern 2026-07-28 result #n",
      "→ stdio modern 2026-07-28 tools/call #n",
      "← stdio modern 2026-07-28 result #n",
    ]);
    expect(run.stderr).toContain('"name":"greet","arguments":{"name":"Ada"}');
  });

  it("over Streamable HTTP: the same messages, each line labelled http", async () => {
    const run = await mcpkit("call", "--trace", running.url, "greet", "--arg", "name=Bo");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello, Bo!\n");
    expect(parse(run.stderr)).toEqual([
      "→ http modern 2026-07-28 server/discover #n",
      "← http modern 2026-07-28 result #n",
      "→ http modern 2026-07-28 tools/list #n",
      "← http modern 2026-07-28 result #n",
      "→ http modern 2026-07-28 tools/call #n",
      "← http modern 2026-07-28 result #n",
    ]);
  });
});
