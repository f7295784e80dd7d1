// `mcpkit --trace`: the CLI run as a process (its bin bundled, plain node) prints the client's wire trace
// on stderr, one line per JSON-RPC message in and out, while stdout stays the command's output.
import path from "node:path";
import { bundleFixture } from "@mcpkit/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type RunningServer, serve } from "../src/index.js";
import { type CliRun, runCli } from "./cli-runner.js";

let greeter: string;
let running: RunningServer;

function mcpkit(...args: string[]): Promise<CliRun> {
  return runCli(args);
}

function mcpkitWithEnv(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return runCli(args, { env });
}

beforeAll(async () => {
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
    // The size is the body's size in bytes while the body is not cut (nor its argument values redacted).
    if (!g.body!.endsWith("…") && !g.body!.includes('"***"'))
      expect(Number(g.size)).toBe(Buffer.byteLength(g.body!));
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
    expect(run.stderr).toContain('"name":"greet","arguments":{"name":"***"}');
  });

  it("[issue-25.weak] argument values stay out of the trace unless --trace-arguments, MCPKIT_DEBUG=wire too", async () => {
    const secret = "name=sk-live-0123456789";
    const redacted = await mcpkit("call", "--trace", running.url, "greet", "--arg", secret);
    expect(redacted.code).toBe(0);
    expect(redacted.stdout).toBe("Hello, sk-live-0123456789!\n");
    expect(redacted.stderr).toContain('"arguments":{"name":"***"}');
    // greet echoes its argument: the value shows in the result coming in, never in a request going out.
    const outgoing = (stderr: string) => stderr.split("\n").filter((line) => line.includes(" → "));
    expect(outgoing(redacted.stderr).join("\n")).not.toContain("sk-live");
    const fromEnv = await mcpkitWithEnv(
      { MCPKIT_DEBUG: "wire" },
      "call",
      running.url,
      "greet",
      "--arg",
      secret,
    );
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stderr).toContain('"arguments":{"name":"***"}');
    expect(outgoing(fromEnv.stderr).join("\n")).not.toContain("sk-live");
    const shown = await mcpkit("call", "--trace-arguments", running.url, "greet", "--arg", secret);
    expect(shown.code).toBe(0);
    expect(shown.stderr).toContain('"arguments":{"name":"sk-live-0123456789"}');
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
