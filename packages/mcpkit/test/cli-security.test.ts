// Issue 25's CLI items, run as a process: a hostile server's text cannot drive the terminal, and a bearer
// token can stay off the command line (and out of the process list).
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, McpError, type RunningServer, serve } from "../src/index.js";
import { runCli } from "./cli-runner.js";

// A window title, a screen clear, an OSC 52 clipboard write, an 8-bit CSI, a line rewrite.
const HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZWNobyBwd25lZA==\x07\x9b31mred\rfake";
const SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x9b31mred\\x0dfake";

let running: RunningServer;

beforeAll(async () => {
  const server = createServer({ name: "hostile", version: "1.0.0" });
  server.registerTool("shout", { description: `Shouts ${HOSTILE}` }, () => `says ${HOSTILE}`);
  server.registerTool("fail", { description: "Fails" }, () => {
    throw new McpError(-32000, `bad ${HOSTILE}`);
  });
  server.registerPrompt("p", { description: "A prompt" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: HOSTILE } }],
  }));
  server.registerResource("hostile://r", { name: "r" }, () => HOSTILE);
  running = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
});

afterAll(async () => {
  await running?.close();
});

describe("[issue-25.weak] terminal escapes from a server are printed escaped", () => {
  it.each([
    ["call", ["call", "shout"], `says ${SHOWN}\n`, 0],
    ["tools", ["tools"], `shout  Shouts ${SHOWN}\nfail   Fails\n`, 0],
    ["prompt", ["prompt", "p"], `user: ${SHOWN}\n`, 0],
    ["read", ["read", "hostile://r"], `${SHOWN}\n`, 0],
  ])("%s", async (_name, argv, stdout, code) => {
    // The URL right after the command: the order every version of the CLI reads.
    const run = await runCli([argv[0]!, running.url, ...argv.slice(1)]);
    expect(run).toEqual({ code, stdout, stderr: "" });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters.
    expect(run.stdout).not.toMatch(/[\x1b\x07\x9b\r]/);
  });

  it("an error message from the server", async () => {
    const run = await runCli(["call", running.url, "fail"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`bad ${SHOWN}`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters.
    expect(run.stderr).not.toMatch(/[\x1b\x07\x9b\r]/);
  });

  it("--json stays JSON that decodes to the server's text", async () => {
    const run = await runCli(["call", running.url, "shout", "--json"]);
    expect(run.code).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters.
    expect(run.stdout).not.toMatch(/[\x1b\x07\x9b\r]/);
    expect(JSON.parse(run.stdout).content[0].text).toBe(`says ${HOSTILE}`);
  });
});

describe("[issue-25.weak] the bearer token can come from MCPKIT_BEARER_TOKEN", () => {
  let http: HttpServer;
  let url: string;
  const seen: Array<string | undefined> = [];
  beforeAll(async () => {
    http = createHttpServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => http.close(resolve));
  });

  it("sends it with no flag on the command line", async () => {
    seen.length = 0;
    const run = await runCli(["tools", url], { env: { MCPKIT_BEARER_TOKEN: "tok-from-env" } });
    expect(run.code).toBe(1);
    expect(seen[0]).toBe("Bearer tok-from-env");
  });

  it("the flag still works, and says on stderr that it shows in the process list", async () => {
    seen.length = 0;
    const run = await runCli(["tools", url, "--bearer-token", "tok-from-flag"]);
    expect(seen[0]).toBe("Bearer tok-from-flag");
    expect(run.stderr.split("\n")[0]).toBe(
      "mcpkit: --bearer-token is visible to other users in the process list; set MCPKIT_BEARER_TOKEN instead",
    );
  });

  it("the help names the variable", async () => {
    expect((await runCli(["--help"])).stdout).toContain("MCPKIT_BEARER_TOKEN");
  });
});
