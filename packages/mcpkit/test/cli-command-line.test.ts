// The CLI as people type it (issue 27, item 5), run as a process: the target before or after the name,
// --args and --json, and one-line errors that name the cause (timeouts, junk on stdout, TLS, a port in
// use), binary contents summarised or saved, argument names checked against the tool's schema.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundleFixture } from "@mcpkit/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type RunningServer, serve } from "../src/index.js";
import { runCli } from "./cli-runner.js";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "cli");
const PNG = Buffer.alloc(6246, 0x89);

let running: RunningServer;
let greeter: string;
let scratch: string;

beforeAll(async () => {
  greeter = await bundleFixture(path.join(import.meta.dirname, "fixtures", "greeter-server.ts"));
  scratch = await mkdtemp(path.join(tmpdir(), "mcpkit-cli-"));
  const server = createServer({ name: "typed", version: "1.0.0" });
  server.registerTool(
    "get-sum",
    {
      description: "Adds",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
    ({ a, b }: { a: number; b: number }) => `The sum of ${a} and ${b} is ${a + b}.`,
  );
  server.registerTool("slow", { description: "Answers when cancelled" }, (_args, ctx) => {
    const signal = (ctx as { signal: AbortSignal }).signal;
    return new Promise((resolve) => signal.addEventListener("abort", () => resolve("late"), { once: true }));
  });
  server.registerTool("logo", { description: "An image" }, () => ({
    content: [
      { type: "text", text: "The logo:" },
      { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
    ],
  }));
  running = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
});

afterAll(async () => {
  await running?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe("mcpkit: where the target goes (built CLI, child process)", () => {
  it("takes the URL before or after the tool, and the tool before -- for a command", async () => {
    const sum = ["--arg", "a=1", "--arg", "b=2"];
    const expected = { code: 0, stdout: "The sum of 1 and 2 is 3.\n", stderr: "" };
    expect(await runCli(["call", running.url, "get-sum", ...sum])).toEqual(expected);
    expect(await runCli(["call", "get-sum", running.url, ...sum])).toEqual(expected);
    expect(await runCli(["call", "greet", "--arg", "name=Ada", "--", process.execPath, greeter])).toEqual({
      code: 0,
      stdout: "Hello, Ada!\n",
      stderr: "",
    });
  });

  it("without a tool, names the server's tools (exit 2)", async () => {
    expect(await runCli(["call", "--", process.execPath, greeter])).toEqual({
      code: 2,
      stdout: "",
      stderr: "mcpkit: call needs a tool name: mcpkit call <tool> <target> (this server has: greet)\n",
    });
  });

  it("without a target, says what a target is", async () => {
    expect(await runCli(["call", "get-sum"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'mcpkit: call needs a target for tool "get-sum": an http(s) URL (before or after the name), -- command args… (last on the line), or --config FILE --server NAME\n',
    });
  });
});

describe("mcpkit: --args for arguments, --json for output", () => {
  it("--args takes the arguments, --json prints JSON", async () => {
    const run = await runCli(["call", "get-sum", running.url, "--args", '{"a":2,"b":3}', "--json"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toMatchObject({
      content: [{ type: "text", text: "The sum of 2 and 3 is 5." }],
      isError: false,
    });
  });

  it("the old --json '{…}' still works, with a one-line notice", async () => {
    expect(await runCli(["call", running.url, "get-sum", "--json", '{"a":2,"b":3}'])).toEqual({
      code: 0,
      stdout: "The sum of 2 and 3 is 5.\n",
      stderr: "mcpkit: --json '{…}' for arguments is now --args '{…}' (--json alone asks for JSON output)\n",
    });
  });

  it("warns about an argument name the tool's input schema does not have, and sends it", async () => {
    expect(
      await runCli(["call", "get-sum", running.url, "--arg", "a=1", "--arg", "b=2", "--arg", "c=3"]),
    ).toEqual({
      code: 0,
      stdout: "The sum of 1 and 2 is 3.\n",
      stderr: 'mcpkit: warning: tool "get-sum" has no parameter "c" (it takes: a, b); sent as given\n',
    });
  });
});

describe("mcpkit: one-line errors that name the cause", () => {
  it("a timeout names the method and the tool", async () => {
    expect(await runCli(["call", "slow", running.url, "--timeout", "300"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'mcpkit: tools/call "slow" timed out after 300 ms\n',
    });
  });

  it("a server that writes only junk on stdout fails after a few seconds, not at the 30 s connect timeout", async () => {
    // The run itself is bounded at 30 s by the runner; the message is the junk watch's, not the timeout's.
    expect(await runCli(["tools", "--", "node", "prints-junk.mjs"], { cwd: FIXTURES })).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'mcpkit: server "node prints-junk.mjs" wrote only output that is not JSON-RPC, for 3 s: "Weather server v2 listening on stdio" (over stdio, logs belong on stderr; --connect-timeout MS waits longer)\n',
    });
  });

  it("a server that logs a banner to stdout and then answers is not cut short", async () => {
    expect(await runCli(["call", "ping", "--", "node", "banner-server.mjs"], { cwd: FIXTURES })).toEqual({
      code: 0,
      stdout: "pong\n",
      stderr: "",
    });
  });

  it("a TLS failure reads TLS: <reason>, not OpenSSL's text", async () => {
    const url = running.url.replace("http://", "https://");
    expect(await runCli(["tools", url])).toEqual({
      code: 1,
      stdout: "",
      stderr: `mcpkit: HTTP POST ${url} failed: TLS: wrong version number (EPROTO)\n`,
    });
  });

  it("a port in use is one line naming the port (--oauth --redirect-port)", async () => {
    const busy: NetServer = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const run = await runCli(["tools", running.url, "--oauth", "--redirect-port", String(port)], {
        env: { MCPKIT_CONFIG_DIR: scratch },
      });
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr: `mcpkit: --redirect-port ${port}: port ${port} on 127.0.0.1 is already in use (EADDRINUSE)\n`,
      });
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});

describe("mcpkit: binary contents", () => {
  it("summarises an image as [image/png, 6.1 KB] instead of printing its base64", async () => {
    expect(await runCli(["call", "logo", running.url])).toEqual({
      code: 0,
      stdout: "The logo:\n[image/png, 6.1 KB]\n",
      stderr: "",
    });
  });

  it("--save DIR writes it and says where", async () => {
    const run = await runCli(["call", "logo", running.url, "--save", "images"], { cwd: scratch });
    expect(run).toEqual({
      code: 0,
      stdout: `The logo:\n[image/png, 6.1 KB → ${path.join("images", "logo-1.png")}]\n`,
      stderr: "",
    });
    expect(await readFile(path.join(scratch, "images", "logo-1.png"))).toEqual(PNG);
  });
});
